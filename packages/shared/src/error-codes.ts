/**
 * The closed list of error codes the gateway produces, namespaced by area. The console may map
 * them to localized texts; the server's message stays the source of truth for display.
 */
export const ErrorCode = {
  RequestInvalidBody: 'request:invalid_body',
  RequestInvalidParameter: 'request:invalid_parameter',
  RequestBodyTooLarge: 'request:body_too_large',
  RequestNotFound: 'request:not_found',
  RequestRateLimited: 'request:rate_limited',
  NotImplemented: 'request:not_implemented',
  AuthRequired: 'auth:required',
  AuthForbidden: 'auth:forbidden',
  AuthInvalidCredentials: 'auth:invalid_credentials',
  AuthUserDisabled: 'auth:user_disabled',
  ResourceNotFound: 'resource:not_found',
  ResourceConflict: 'resource:conflict',
  FeatureDisabled: 'feature:disabled',
  MailFailed: 'mail:failed',
  QuotaInsufficient: 'quota:insufficient',
  TokenInvalid: 'token:invalid',
  TokenForbidden: 'token:forbidden',
  ModelNotPriced: 'model:not_priced',
  ModelForbidden: 'model:forbidden',
  UpstreamSaturated: 'upstream:saturated',
  ChannelUnavailable: 'channel:unavailable',
  UpstreamError: 'upstream:error',
  Internal: 'internal:error',
} as const;
export type ErrorCodeValue = (typeof ErrorCode)[keyof typeof ErrorCode];
