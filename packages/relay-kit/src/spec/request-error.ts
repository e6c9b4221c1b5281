/** Codes of {@link RelayRequestError}, namespaced like every Switchyard error code. */
export type RelayRequestErrorCode =
  /** The body is not valid JSON. */
  | 'request:invalid_json'
  /** The body is JSON but a field is missing or has the wrong type. */
  | 'request:invalid_body'
  /** The selected adapter cannot serve this protocol (and no conversion exists yet). */
  | 'request:unsupported_protocol';

const RELAY_REQUEST_ERROR_BRAND = Symbol.for('switchyard.relay-kit.request-error');

/**
 * The client's request cannot be relayed as sent: a local error, never retried on another
 * channel. `message` is safe to return to the client; `param` names the offending field.
 */
export class RelayRequestError extends Error {
  readonly [RELAY_REQUEST_ERROR_BRAND] = true;
  readonly code: RelayRequestErrorCode;
  /**
   * The status relay-kit suggests (400, or 501 for unsupported protocols). The server answers
   * every request error with a 400 in the caller's protocol: a 5xx makes clients retry.
   */
  readonly status: number;
  readonly param: string | undefined;

  constructor(
    code: RelayRequestErrorCode,
    message: string,
    options: { param?: string; status?: number } = {},
  ) {
    super(message);
    this.name = 'RelayRequestError';
    this.code = code;
    this.status = options.status ?? (code === 'request:unsupported_protocol' ? 501 : 400);
    this.param = options.param;
  }
}

/** True for any {@link RelayRequestError}, including one from another copy of this package. */
export function isRelayRequestError(value: unknown): value is RelayRequestError {
  return typeof value === 'object' && value !== null && RELAY_REQUEST_ERROR_BRAND in value;
}
