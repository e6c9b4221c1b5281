import type { HeadersLike } from '../spec/provider-adapter.js';
import type { UpstreamErrorCode } from '../spec/upstream-error.js';

/** What an adapter extracted from an error response, in provider-neutral form. */
export interface UpstreamErrorFacts {
  readonly status: number;
  /** `json` when the body was the provider's JSON error format. */
  readonly bodyKind: 'json' | 'html' | 'text' | 'empty';
  readonly message: string;
  readonly type?: string | undefined;
  readonly code?: string | undefined;
}

/** The relay decision for an upstream error. */
export interface UpstreamErrorClassification {
  readonly code: UpstreamErrorCode;
  readonly retryable: boolean;
  readonly channelFault: boolean;
}

const INVALID_KEY_CODES = new Set([
  'invalid_api_key',
  'invalid_key',
  'account_deactivated',
  'authentication_error',
  'unauthenticated',
  'api_key_invalid',
]);
const QUOTA_CODES = new Set([
  'insufficient_quota',
  'billing_not_active',
  'billing_hard_limit_reached',
  'insufficient_balance',
  'quota_exceeded',
]);
const FORBIDDEN_CODES = new Set([
  'permission_error',
  'permission_denied',
  'forbidden',
  'unsupported_country_region_territory',
  'organization_disabled',
]);
const MODEL_NOT_FOUND_CODES = new Set(['model_not_found', 'model_not_exist', 'invalid_model']);

// Default auto-disable keywords of new-api (`AutomaticDisableKeywords`), lower-cased, plus the
// messages of the common vendors that report key or billing problems with 400/429 statuses.
const QUOTA_KEYWORDS = [
  'you exceeded your current quota',
  'your credit balance is too low',
  'insufficient balance',
  'insufficient account balance',
  'billing hard limit',
];
const INVALID_KEY_KEYWORDS = [
  'incorrect api key',
  'invalid api key',
  'api key not valid',
  'invalid x-api-key',
  'the security token included in the request is invalid',
];
const FORBIDDEN_KEYWORDS = [
  'this organization has been disabled.',
  'permission denied',
  'operation not allowed',
  'your account is not authorized',
];
const MODEL_NOT_FOUND_PATTERN =
  /\bmodel\b[^.]{0,120}?\b(?:does not exist|do not have access|not found|not exist)|\b(?:unknown|invalid) model\b|\bno such model\b|\bnot found the model\b|\bis not a valid model\b|模型不存在/i;

/**
 * Decides whether an upstream error may be retried on another channel and whether it is the
 * channel's fault. Improves on new-api's `shouldRetry` (which retried 401/403/404 and any 4xx
 * except 400 and 408, burning through channels on client errors):
 *
 * - Key, account and billing problems (401, 402, 403, `insufficient_quota`, known vendor messages,
 *   at any status) are the channel's fault and retryable on another channel.
 * - 429 without a quota message is a transient rate limit: retryable, not a fault.
 * - A model the upstream does not know is the channel's fault (the gateway only routes a model to
 *   channels that list it): retryable. An HTML/plain 404 means a wrong base URL: same.
 * - Any other 4xx is the client's request (bad parameters, context too long): not retryable.
 * - 5xx is retryable except 504/524 (the upstream may still be working, and billing, on it).
 * - 408 and 3xx (a base URL that redirects) are retryable.
 */
export function classifyUpstreamError(facts: UpstreamErrorFacts): UpstreamErrorClassification {
  const { status } = facts;
  const code = facts.code?.toLowerCase();
  const type = facts.type?.toLowerCase();
  const message = facts.message.toLowerCase();
  const matches = (codes: ReadonlySet<string>, keywords: readonly string[]) =>
    (code !== undefined && codes.has(code)) ||
    (type !== undefined && codes.has(type)) ||
    keywords.some((keyword) => message.includes(keyword));

  if (status >= 500 || status === 0) {
    if (status === 504 || status === 524) return fault('upstream:timeout', false, false);
    return fault('upstream:server_error', true, false);
  }
  if (matches(QUOTA_CODES, QUOTA_KEYWORDS) || status === 402)
    return fault('channel:quota_exhausted', true, true);
  if (matches(INVALID_KEY_CODES, INVALID_KEY_KEYWORDS) || status === 401) {
    return fault('channel:invalid_key', true, true);
  }
  if (matches(FORBIDDEN_CODES, FORBIDDEN_KEYWORDS) || status === 403)
    return fault('channel:forbidden', true, true);
  if (status === 429) return fault('upstream:rate_limited', true, false);
  if (status === 408) return fault('upstream:timeout', true, false);
  if (status < 200 || (status >= 300 && status < 400)) return fault('channel:bad_endpoint', true, true);
  if (status < 300) return fault('upstream:bad_response', true, false);
  if (
    (code !== undefined && MODEL_NOT_FOUND_CODES.has(code)) ||
    (type !== undefined && MODEL_NOT_FOUND_CODES.has(type)) ||
    MODEL_NOT_FOUND_PATTERN.test(facts.message)
  ) {
    return fault('channel:model_not_found', true, true);
  }
  if (status === 404 && facts.bodyKind !== 'json') return fault('channel:bad_endpoint', true, true);
  return fault('upstream:bad_request', false, false);
}

function fault(
  code: UpstreamErrorCode,
  retryable: boolean,
  channelFault: boolean,
): UpstreamErrorClassification {
  return { code, retryable, channelFault };
}

/** Reads one header from a `Headers` object or a plain record (case-insensitive). */
export function readHeader(headers: HeadersLike | undefined, name: string): string | undefined {
  if (headers === undefined) return undefined;
  if (typeof (headers as Headers).get === 'function') return (headers as Headers).get(name) ?? undefined;
  const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>;
  let value = record[name];
  if (value === undefined) {
    const lower = name.toLowerCase();
    for (const key of Object.keys(record)) {
      if (key.toLowerCase() === lower) {
        value = record[key];
        break;
      }
    }
  }
  return typeof value === 'string' ? value : value?.[0];
}

/**
 * The delay an upstream asked for, in milliseconds: OpenAI's `retry-after-ms`, else `Retry-After`
 * as seconds or an HTTP date. `now` is injectable for tests.
 */
export function readRetryAfterMs(
  headers: HeadersLike | undefined,
  now: number = Date.now(),
): number | undefined {
  const milliseconds = readHeader(headers, 'retry-after-ms');
  if (milliseconds !== undefined) {
    const value = Number(milliseconds);
    if (Number.isFinite(value) && value >= 0) return Math.round(value);
  }
  const retryAfter = readHeader(headers, 'retry-after');
  if (retryAfter === undefined || retryAfter.trim() === '') return undefined;
  const seconds = Number(retryAfter);
  if (Number.isFinite(seconds)) return seconds >= 0 ? Math.round(seconds * 1000) : undefined;
  const date = Date.parse(retryAfter);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
