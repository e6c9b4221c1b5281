import type { IncomingHttpHeaders } from 'node:http';
import type { MockErrorDetails, MockProtocol } from './protocol-errors.ts';

/** The key every protocol rejects as invalid (a channel with a bad key, for auto-disable tests). */
export const invalidApiKey = 'sk-invalid';

const openAiMissingKey: MockErrorDetails = {
  status: 401,
  code: null,
  message:
    "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).",
};
const openAiInvalidKey: MockErrorDetails = {
  status: 401,
  code: 'invalid_api_key',
  message:
    'Incorrect API key provided: sk-inval****. You can find your API key at https://platform.openai.com/account/api-keys.',
};
const anthropicMissingKey: MockErrorDetails = { status: 401, message: 'x-api-key header is required' };
const anthropicInvalidKey: MockErrorDetails = { status: 401, message: 'invalid x-api-key' };
const anthropicMissingVersion: MockErrorDetails = {
  status: 400,
  message: 'anthropic-version: header is required',
};
const geminiMissingKey: MockErrorDetails = {
  status: 403,
  message:
    "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
};
const geminiInvalidKey: MockErrorDetails = {
  status: 400,
  message: 'API key not valid. Please pass a valid API key.',
  details: [
    {
      '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
      reason: 'API_KEY_INVALID',
      domain: 'googleapis.com',
      metadata: { service: 'generativelanguage.googleapis.com' },
    },
  ],
};

function readBearer(authorization: string | undefined): string | undefined {
  if (authorization === undefined || authorization.length < 8) return undefined;
  if (authorization.slice(0, 7).toLowerCase() !== 'bearer ') return undefined;
  const key = authorization.slice(7).trim();
  return key === '' ? undefined : key;
}

/**
 * Checks the credentials the way each provider does and returns the provider's error when they
 * are missing or equal to {@link invalidApiKey}. Any other key is accepted.
 * - OpenAI: `Authorization: Bearer <key>`.
 * - Anthropic: `x-api-key` (or a Bearer token), plus a required `anthropic-version` header.
 * - Gemini: `x-goog-api-key` or `?key=`; an invalid key is a 400 `API_KEY_INVALID`, as Google sends.
 */
export function checkProviderAuth(
  protocol: MockProtocol,
  headers: IncomingHttpHeaders,
  query: URLSearchParams,
): MockErrorDetails | undefined {
  if (protocol === 'openai') {
    const key = readBearer(headers.authorization);
    if (key === undefined) return openAiMissingKey;
    return key === invalidApiKey ? openAiInvalidKey : undefined;
  }
  if (protocol === 'anthropic') {
    const headerKey = headers['x-api-key'];
    const key =
      (typeof headerKey === 'string' && headerKey !== '' ? headerKey : undefined) ??
      readBearer(headers.authorization);
    if (key === undefined) return anthropicMissingKey;
    if (key === invalidApiKey) return anthropicInvalidKey;
    return headers['anthropic-version'] ? undefined : anthropicMissingVersion;
  }
  const headerKey = headers['x-goog-api-key'];
  const key =
    (typeof headerKey === 'string' && headerKey !== '' ? headerKey : undefined) ??
    query.get('key') ??
    undefined;
  if (key === undefined || key === '') return geminiMissingKey;
  return key === invalidApiKey ? geminiInvalidKey : undefined;
}
