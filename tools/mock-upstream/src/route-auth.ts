import type { IncomingHttpHeaders } from 'node:http';
import type { MockRoute } from './mock-request-context.ts';
import type { MockErrorDetails } from './protocol-errors.ts';
import { checkProviderAuth, invalidApiKey } from './provider-auth.ts';
import { mockAccessTokenPrefix } from './vertex/google-token-handler.ts';

const azureMissingKey: MockErrorDetails = {
  status: 401,
  code: '401',
  message:
    'Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.',
};
const bearerMissing: MockErrorDetails = {
  status: 401,
  message:
    'Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
};
const bearerInvalid: MockErrorDetails = {
  status: 401,
  message: 'Request had invalid authentication credentials. Expected OAuth 2 access token.',
};
const awsMissing: MockErrorDetails = {
  status: 403,
  type: 'MissingAuthenticationTokenException',
  message: 'Missing Authentication Token',
};
const awsInvalid: MockErrorDetails = {
  status: 403,
  type: 'UnrecognizedClientException',
  message: 'The security token included in the request is invalid.',
};
const awsMalformed: MockErrorDetails = {
  status: 403,
  type: 'IncompleteSignatureException',
  message:
    "Authorization header requires 'Credential', 'SignedHeaders' and 'Signature' parameters, and an X-Amz-Date header.",
};

/** `Credential=AKID/20240101/us-east-1/bedrock/aws4_request, SignedHeaders=..., Signature=<hex>`. */
const sigV4Pattern =
  /^AWS4-HMAC-SHA256 Credential=([^/\s]+)\/\d{8}\/[a-z0-9-]+\/[a-z0-9-]+\/aws4_request, ?SignedHeaders=[a-z0-9;-]+, ?Signature=[0-9a-f]{64}$/;

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * Checks a request's credentials the way its route's provider does: the route's `auth` style
 * when it has one, the protocol's own way otherwise (see `checkProviderAuth`). Returns the error
 * to send, or `undefined` when the request may proceed. `sk-invalid` (the access key id for AWS)
 * is rejected everywhere; SigV4 signatures are checked for shape, not verified.
 */
export function checkRouteAuth(
  route: MockRoute,
  headers: IncomingHttpHeaders,
  query: URLSearchParams,
): MockErrorDetails | undefined {
  switch (route.auth) {
    case undefined:
      return checkProviderAuth(route.protocol, headers, query);
    case 'none':
      return undefined;
    case 'azure': {
      const key = single(headers['api-key']);
      if (key === undefined || key === '' || key === invalidApiKey) return azureMissingKey;
      return undefined;
    }
    case 'bearer':
    case 'google-oauth': {
      const authorization = single(headers.authorization) ?? '';
      if (!/^bearer \S/i.test(authorization)) return bearerMissing;
      const token = authorization.slice(7).trim();
      if (token === invalidApiKey) return bearerInvalid;
      return route.auth === 'google-oauth' && !token.startsWith(mockAccessTokenPrefix)
        ? bearerInvalid
        : undefined;
    }
    case 'aws-sigv4': {
      const authorization = single(headers.authorization);
      if (authorization === undefined || !authorization.startsWith('AWS4-HMAC-SHA256')) return awsMissing;
      const match = sigV4Pattern.exec(authorization);
      if (!match || !single(headers['x-amz-date'])) return awsMalformed;
      return match[1] === invalidApiKey ? awsInvalid : undefined;
    }
  }
}
