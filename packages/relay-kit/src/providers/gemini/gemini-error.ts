import type { HeadersLike } from '../../spec/provider-adapter.js';
import { UpstreamError } from '../../spec/upstream-error.js';
import { maskSensitive } from '../../util/mask-sensitive.js';
import {
  classifyUpstreamError,
  readRetryAfterMs,
  type UpstreamErrorClassification,
  type UpstreamErrorFacts,
} from '../classify-upstream-error.js';
import { extractOpenAIErrorFacts } from '../openai/openai-error.js';
import { isRecord } from './gemini-api.js';

/**
 * Parses a Google error response (`{"error":{"code","message","status","details":[{"reason"}]}}`,
 * sometimes wrapped in an array) into an {@link UpstreamError} through the shared classifier:
 * `API_KEY_INVALID` / 401 → invalid key, 403 `PERMISSION_DENIED` → forbidden (channel faults,
 * retryable elsewhere), 429 `RESOURCE_EXHAUSTED` → rate limited (retryable), 5xx → retryable. HTML and text bodies get the generic treatment.
 */
export function parseGeminiError(status: number, bodyText: string, headers?: HeadersLike): UpstreamError {
  const facts = extractGeminiErrorFacts(status, bodyText);
  const classification = classifyGeminiError(facts);
  return new UpstreamError({
    status,
    code: classification.code,
    message: maskSensitive(facts.message),
    type: facts.type,
    upstreamCode: facts.code,
    retryable: classification.retryable,
    channelFault: classification.channelFault,
    rawBody: bodyText,
    retryAfterMs: readRetryAfterMs(headers),
  });
}

/**
 * Google-specific corrections of the shared rules: a 429 always means a per-minute or per-day
 * rate quota (its message says "exceeded your current quota" even then), never a billing problem;
 * "User location is not supported" means the channel's region may not use the API.
 */
function classifyGeminiError(facts: UpstreamErrorFacts): UpstreamErrorClassification {
  if (facts.status === 429) return { code: 'upstream:rate_limited', retryable: true, channelFault: false };
  if (facts.message.toLowerCase().includes('location is not supported')) {
    return { code: 'channel:forbidden', retryable: true, channelFault: true };
  }
  return classifyUpstreamError(facts);
}

/**
 * Message, symbolic status (as `type`) and the most specific code (`details[].reason` such as
 * `API_KEY_INVALID`, else the symbolic status) of a Google error body.
 */
export function extractGeminiErrorFacts(status: number, bodyText: string): UpstreamErrorFacts {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    parsed = undefined;
  }
  const root = Array.isArray(parsed) ? parsed[0] : parsed;
  const error = isRecord(root) ? root.error : undefined;
  if (!isRecord(error)) return extractOpenAIErrorFacts(status, bodyText);
  const symbolic = typeof error.status === 'string' && error.status !== '' ? error.status : undefined;
  let reason: string | undefined;
  if (Array.isArray(error.details)) {
    for (const detail of error.details) {
      if (isRecord(detail) && typeof detail.reason === 'string' && detail.reason !== '') {
        reason = detail.reason;
        break;
      }
    }
  }
  const message =
    typeof error.message === 'string' && error.message !== ''
      ? error.message
      : `bad response status code ${status}`;
  return { status, bodyKind: 'json', message, type: symbolic, code: reason ?? symbolic };
}
