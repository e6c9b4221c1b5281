import { ErrorCode, type ErrorCodeValue } from '@switchyard/shared';

export interface GatewayErrorOptions {
  /** HTTP status for the relay families; the console API maps most statuses to 200 (see error-handler). */
  status?: number;
  cause?: unknown;
  retryable?: boolean;
  channelFault?: boolean;
  logAsError?: boolean;
  /** The error `type` relay clients see (`invalid_request_error`, `upstream_error`...). */
  type?: string;
  /** The wire `code` relay clients see, when it differs from the gateway code (upstream codes). */
  wireCode?: string | null;
}

/**
 * The one error type of the server. Services throw it; the error handler (and the stream writer
 * for errors after the first byte) converts it to the wire shape of the route family.
 * `message` is safe to show to clients: never put keys, secrets or upstream URLs in it.
 */
export class GatewayError extends Error {
  override name = 'GatewayError';
  readonly code: ErrorCodeValue;
  readonly status: number;
  readonly retryable: boolean;
  readonly channelFault: boolean;
  readonly logAsError: boolean;
  readonly type: string | undefined;
  readonly wireCode: string | null | undefined;
  readonly isGatewayError = true;

  constructor(code: ErrorCodeValue, message: string, options: GatewayErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.status = options.status ?? 400;
    this.retryable = options.retryable ?? false;
    this.channelFault = options.channelFault ?? false;
    this.logAsError = options.logAsError ?? this.status >= 500;
    this.type = options.type;
    this.wireCode = options.wireCode;
  }
}

/** Structural check that works across package boundaries. */
export function isGatewayError(value: unknown): value is GatewayError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { isGatewayError?: unknown }).isGatewayError === true
  );
}

/** A business rule refused the request (shown to the user as given). */
export const invalidRequest = (message: string) =>
  new GatewayError(ErrorCode.RequestInvalidParameter, message, { status: 400 });
export const notFound = (message: string) =>
  new GatewayError(ErrorCode.ResourceNotFound, message, { status: 404 });
export const forbidden = (message: string) =>
  new GatewayError(ErrorCode.AuthForbidden, message, { status: 403 });
export const unauthorized = (message: string) =>
  new GatewayError(ErrorCode.AuthRequired, message, { status: 401 });

/**
 * A request the gateway cannot relay as sent (relay-kit's `RelayRequestError`: invalid body, or
 * content with no equivalent on the channel's protocol): always a 400 in the caller's protocol,
 * never a 5xx, which clients and agents would retry.
 */
export const requestRefused = (message: string) =>
  new GatewayError(ErrorCode.RequestInvalidBody, message, { status: 400, type: 'invalid_request_error' });

/** A refusal of the relay's own (type `switchyard_error`), answered in the caller's protocol. */
export const relayRefusal = (
  code: ErrorCodeValue,
  message: string,
  status: number,
  wireCode?: string,
  logAsError?: boolean,
) => new GatewayError(code, message, { status, type: 'switchyard_error', wireCode, logAsError });
