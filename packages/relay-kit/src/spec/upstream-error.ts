import { maskSensitive } from '../util/mask-sensitive.js';

/**
 * The gateway's classification of an upstream failure (lowercase, namespaced like every Switchyard
 * error code). `channel:*` codes blame the channel's configuration or account; `upstream:*` codes
 * describe the call itself.
 */
export type UpstreamErrorCode =
  /** The channel key was rejected (401, `invalid_api_key`, ...). */
  | 'channel:invalid_key'
  /** The channel's account may not use this API/model/region (403, `permission_error`, ...). */
  | 'channel:forbidden'
  /** The channel's upstream account has no credit or quota left. */
  | 'channel:quota_exhausted'
  /** The channel claims a model the upstream does not serve to this key. */
  | 'channel:model_not_found'
  /** The channel's base URL does not point at a compatible API (HTML 404, redirects...). */
  | 'channel:bad_endpoint'
  /** Upstream rate limit (transient). */
  | 'upstream:rate_limited'
  /** Upstream 5xx. */
  | 'upstream:server_error'
  /** Upstream or network timeout. */
  | 'upstream:timeout'
  /** The upstream rejected the request itself (the client's fault, usually a 400). */
  | 'upstream:bad_request'
  /** The upstream answered with something that is not its API's error format. */
  | 'upstream:bad_response'
  /** The upstream could not be reached (DNS, refused, reset, TLS). */
  | 'upstream:network_error'
  /** An error reported inside a stream after the first byte. */
  | 'upstream:stream_error';

/** Fields of an {@link UpstreamError}. */
export interface UpstreamErrorInit {
  /** Upstream HTTP status; 0 when no response was received (network error, timeout). */
  status: number;
  code: UpstreamErrorCode;
  /** Message safe to show to clients: URLs, addresses and keys are masked. */
  message: string;
  /** The upstream's error type (`invalid_request_error`, `insufficient_quota`...), if any. */
  type?: string | undefined;
  /** The upstream's own error code (`model_not_found`, `invalid_api_key`...), if any. */
  upstreamCode?: string | undefined;
  /** The request parameter the upstream blamed, if any. */
  param?: string | undefined;
  /** Another channel (or attempt) may succeed where this one failed. */
  retryable: boolean;
  /** The channel itself is broken (key, account, configuration): feed channel health. */
  channelFault: boolean;
  /** The upstream body as received (truncated to a few KB), for admin logs only. */
  rawBody?: string | undefined;
  /** Delay the upstream asked for (`Retry-After`), in milliseconds. */
  retryAfterMs?: number | undefined;
  cause?: unknown;
}

const UPSTREAM_ERROR_BRAND = Symbol.for('switchyard.relay-kit.upstream-error');

/** Maximum characters of an upstream body kept on an error (logs must stay bounded). */
export const MAX_RAW_ERROR_BODY = 4096;

/**
 * An upstream call failed. Produced by `ProviderAdapter.parseError` for non-2xx responses, by
 * {@link upstreamErrorFromException} for network failures, and as `error` stream parts for
 * failures after the first byte. The two flags drive the relay: `retryable` decides whether the
 * next attempt may run, `channelFault` feeds auto-disable. Use {@link isUpstreamError} rather than
 * `instanceof`, which fails across duplicated package copies.
 */
export class UpstreamError extends Error {
  readonly [UPSTREAM_ERROR_BRAND] = true;
  readonly status: number;
  readonly code: UpstreamErrorCode;
  readonly type: string | undefined;
  readonly upstreamCode: string | undefined;
  readonly param: string | undefined;
  readonly retryable: boolean;
  readonly channelFault: boolean;
  readonly rawBody: string | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(init: UpstreamErrorInit) {
    super(init.message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'UpstreamError';
    this.status = init.status;
    this.code = init.code;
    this.type = init.type;
    this.upstreamCode = init.upstreamCode;
    this.param = init.param;
    this.retryable = init.retryable;
    this.channelFault = init.channelFault;
    this.rawBody =
      init.rawBody !== undefined && init.rawBody.length > MAX_RAW_ERROR_BODY
        ? init.rawBody.slice(0, MAX_RAW_ERROR_BODY)
        : init.rawBody;
    this.retryAfterMs = init.retryAfterMs;
  }
}

/** True for any {@link UpstreamError}, including one from another copy of this package. */
export function isUpstreamError(value: unknown): value is UpstreamError {
  return typeof value === 'object' && value !== null && UPSTREAM_ERROR_BRAND in value;
}

const TIMEOUT_CODES = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
  'ESOCKETTIMEDOUT',
]);
// Failures that mean the configured address is wrong, not that the upstream is busy.
const MISCONFIGURED_CODES = new Set([
  'ENOTFOUND',
  'ECONNREFUSED',
  'ERR_INVALID_URL',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
]);

/**
 * Classifies an exception thrown while calling an upstream (undici/fetch errors, timeouts) as an
 * {@link UpstreamError}. Timeouts and transient network failures are retryable; DNS failures,
 * refused connections and TLS certificate errors are also the channel's fault. The message never
 * contains the upstream address. Pass `timeout: true` when the caller's own timer aborted the call.
 */
export function upstreamErrorFromException(
  error: unknown,
  options: { timeout?: boolean } = {},
): UpstreamError {
  if (isUpstreamError(error)) return error;
  const code = findErrorCode(error);
  const isTimeout =
    options.timeout === true ||
    (code !== undefined && TIMEOUT_CODES.has(code)) ||
    hasName(error, 'TimeoutError');
  if (isTimeout) {
    return new UpstreamError({
      status: 0,
      code: 'upstream:timeout',
      message: 'upstream request timed out',
      upstreamCode: code,
      retryable: true,
      channelFault: false,
      cause: error,
    });
  }
  const misconfigured = code !== undefined && MISCONFIGURED_CODES.has(code);
  return new UpstreamError({
    status: 0,
    code: 'upstream:network_error',
    message: `failed to reach the upstream${code ? ` (${code})` : ''}`,
    upstreamCode: code,
    retryable: true,
    channelFault: misconfigured,
    cause: error,
  });
}

/** Masks a message for clients; see `maskSensitive`. */
export function safeUpstreamMessage(message: string): string {
  return maskSensitive(message);
}

function findErrorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function hasName(error: unknown, name: string): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth++) {
    if ((current as { name?: unknown }).name === name) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}
