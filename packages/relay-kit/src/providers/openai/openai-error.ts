import type { HeadersLike } from '../../spec/provider-adapter.js';
import { UpstreamError } from '../../spec/upstream-error.js';
import { maskSensitive } from '../../util/mask-sensitive.js';
import {
  classifyUpstreamError,
  readRetryAfterMs,
  type UpstreamErrorFacts,
} from '../classify-upstream-error.js';
import type { OpenAIErrorObject } from './openai-api.js';

/**
 * Parses an error response of an OpenAI-compatible upstream into an {@link UpstreamError}.
 * Understands the OpenAI shape `{"error":{"message","type","param","code"}}` and the variants
 * compatible upstreams use (`{"error":"text"}`, `{"message":...}`, `{"detail":...}`, arrays,
 * Gemini-style numeric codes); HTML and plain-text bodies (proxies, Cloudflare) become
 * `bad response status code N`. See `classifyUpstreamError` for the retry and fault rules.
 */
export function parseOpenAIError(status: number, bodyText: string, headers?: HeadersLike): UpstreamError {
  const facts = extractOpenAIErrorFacts(status, bodyText);
  const classification = classifyUpstreamError(facts);
  return new UpstreamError({
    status,
    code: classification.code,
    message: maskSensitive(facts.message),
    type: facts.type,
    upstreamCode: facts.code,
    param: facts.param,
    retryable: classification.retryable,
    channelFault: classification.channelFault,
    rawBody: bodyText,
    retryAfterMs: readRetryAfterMs(headers),
  });
}

/** Error facts plus the blamed parameter. */
export interface OpenAIErrorFacts extends UpstreamErrorFacts {
  readonly param?: string | undefined;
}

/** Extracts message/type/code/param from an error body without classifying it. */
export function extractOpenAIErrorFacts(status: number, bodyText: string): OpenAIErrorFacts {
  const trimmed = bodyText.trim();
  if (trimmed === '') return { status, bodyKind: 'empty', message: `bad response status code ${status}` };
  const first = trimmed.charCodeAt(0);
  if (first === 123 /* { */ || first === 91 /* [ */) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      parsed = undefined;
    }
    const facts = parsed === undefined ? undefined : factsFromJson(status, parsed);
    if (facts !== undefined) return facts;
  }
  if (first === 60 /* < */)
    return { status, bodyKind: 'html', message: `bad response status code ${status}` };
  const snippet = trimmed.length > 200 ? `${trimmed.slice(0, 200)}…` : trimmed;
  return { status, bodyKind: 'text', message: `bad response status code ${status}: ${snippet}` };
}

function factsFromJson(status: number, parsed: unknown): OpenAIErrorFacts | undefined {
  const root = Array.isArray(parsed) ? parsed[0] : parsed;
  if (typeof root !== 'object' || root === null) return undefined;
  const record = root as Record<string, unknown>;
  const error = record.error;
  if (typeof error === 'object' && error !== null && !Array.isArray(error)) {
    const object = error as OpenAIErrorObject & { status?: unknown };
    const message = asText(object.message) ?? asText(record.message) ?? `bad response status code ${status}`;
    return {
      status,
      bodyKind: 'json',
      message,
      // Gemini puts the symbolic code in `status` and the HTTP status in `code`.
      type: asText(object.type) ?? asText(object.status),
      code: asCode(object.code),
      param: asText(object.param),
    };
  }
  const message =
    asText(error) ??
    asText(record.message) ??
    asText(record.msg) ??
    asText(record.error_msg) ??
    detailText(record.detail);
  if (message === undefined) return undefined;
  return {
    status,
    bodyKind: 'json',
    message,
    type: asText(record.type),
    code: asCode(record.code) ?? asCode(record.error_code),
  };
}

function asText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function asCode(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function detailText(detail: unknown): string | undefined {
  if (typeof detail === 'string') return detail || undefined;
  // FastAPI validation errors: [{"loc": [...], "msg": "...", "type": "..."}]
  if (Array.isArray(detail)) {
    const messages = detail
      .map((item) =>
        typeof item === 'object' && item !== null ? asText((item as { msg?: unknown }).msg) : undefined,
      )
      .filter((item): item is string => item !== undefined);
    return messages.length > 0 ? messages.join('; ') : undefined;
  }
  return undefined;
}
