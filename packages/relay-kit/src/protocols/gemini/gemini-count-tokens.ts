import { isRecord } from '../../providers/gemini/gemini-api.js';
import type { ClientRequest } from '../../spec/protocol-codec.js';
import type { RelayCall } from '../../spec/relay-call.js';
import { RelayRequestError } from '../../spec/request-error.js';
import { readJsonObjectBody } from '../read-json-body.js';
import { parseGeminiModelMethod } from './gemini-path.js';
import { geminiPromptInput } from './gemini-prompt.js';

/**
 * Parses `:countTokens` (`{contents}` or `{generateContentRequest: {…}}`) as a `gemini` call that
 * is never streamed: the prompt is what the request would send, for the gateway's own estimate
 * when no Gemini channel serves the model.
 */
export function parseGeminiCountTokensRequest(request: ClientRequest): RelayCall {
  const { model, method } = parseGeminiModelMethod(request.path);
  if (method !== 'countTokens') {
    throw new RelayRequestError('request:invalid_body', `"${method}" is not countTokens`, { param: 'path' });
  }
  const body = readJsonObjectBody(request);
  const inner = isRecord(body.generateContentRequest) ? body.generateContentRequest : body;
  if (!Array.isArray(inner.contents)) {
    throw new RelayRequestError('request:invalid_body', '"contents" must be an array of contents', {
      param: 'contents',
    });
  }
  return {
    protocol: 'gemini',
    model,
    upstreamModel: model,
    stream: false,
    includeUsage: false,
    maxTokens: undefined,
    body,
    rawBody: request.rawBody,
    path: request.path,
    query: request.query,
    prompt: geminiPromptInput(inner),
  };
}
