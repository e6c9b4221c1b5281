import type { ClientError, ClientRequest, ProtocolCodec } from '../../spec/protocol-codec.js';
import type { RelayCall } from '../../spec/relay-call.js';
import { readJsonObjectBody } from '../read-json-body.js';
import { parseGeminiPath } from './gemini-path.js';
import { geminiPromptInput } from './gemini-prompt.js';
import { validateGeminiRequest } from './gemini-request-schemas.js';
import { createGeminiStreamWriter } from './gemini-stream-writer.js';
import { convertGeminiCallToChat } from './gemini-to-chat.js';
import { formatGeminiErrorBody, formatGeminiResponse } from './gemini-wire.js';

/**
 * Parses a Gemini `generateContent` / `streamGenerateContent` request: model and stream flag come
 * from the path, the body is validated strictly and kept opaque (raw bytes for byte-exact
 * forwarding), `maxTokens` is `generationConfig.maxOutputTokens`. `includeUsage` is false (Gemini
 * streams always carry usage; there is nothing to ask for). `query` (without `key`) decides the
 * stream form.
 */
export function parseGeminiRequest(request: ClientRequest): RelayCall {
  const { model, stream } = parseGeminiPath(request.path);
  const body = readJsonObjectBody(request);
  const { maxTokens } = validateGeminiRequest(body);
  return {
    protocol: 'gemini',
    model,
    upstreamModel: model,
    stream,
    includeUsage: false,
    maxTokens,
    body,
    rawBody: request.rawBody,
    path: request.path,
    query: request.query,
    prompt: geminiPromptInput(body),
  };
}

/** The codec for clients of `POST /v1beta/models/{model}:generateContent` and `:streamGenerateContent`. */
export const geminiCodec: ProtocolCodec = {
  protocol: 'gemini',
  parseRequest: parseGeminiRequest,
  toChatCall: convertGeminiCallToChat,
  formatError: (error: ClientError) => formatGeminiErrorBody(error),
  formatStreamError: (error: ClientError) => `data: ${formatGeminiErrorBody(error)}\r\n\r\n`,
  toClientResponse: formatGeminiResponse,
  toClientStream: createGeminiStreamWriter,
};
