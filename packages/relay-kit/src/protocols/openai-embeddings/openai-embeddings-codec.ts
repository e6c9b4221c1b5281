import type { ClientError, ClientRequest, ProtocolCodec } from '../../spec/protocol-codec.js';
import type { RelayCall } from '../../spec/relay-call.js';
import { RelayRequestError } from '../../spec/request-error.js';
import { formatOpenAIErrorBody } from '../openai-chat/openai-chat-wire.js';
import type { OpenAITextPromptInput } from '../openai-completions/openai-text-input.js';
import { readJsonObjectBody } from '../read-json-body.js';
import { validateOpenAIEmbeddingsRequest } from './openai-embeddings-schemas.js';

/**
 * Parses an OpenAI embeddings request (`POST /v1/embeddings`, or the legacy
 * `POST /v1/engines/{model}/embeddings`, whose path gives the model when the body has none; pass
 * the path in `request.path`) into a {@link RelayCall}. Embeddings never stream. The prompt input
 * lists the input texts; token-array inputs are counted by length (`tokenCount`). When the
 * model came from the path, the adapter writes it into the forwarded body.
 */
export function parseOpenAIEmbeddingsRequest(
  request: ClientRequest,
): RelayCall & { readonly prompt: OpenAITextPromptInput } {
  const body = readJsonObjectBody(request);
  const fields = validateOpenAIEmbeddingsRequest(body, request.path);
  return {
    protocol: 'openai-embeddings',
    model: fields.model,
    upstreamModel: fields.model,
    stream: false,
    includeUsage: false,
    maxTokens: undefined,
    body,
    rawBody: request.rawBody,
    path: request.path,
    prompt: fields.prompt,
  };
}

/**
 * Embeddings have no protocol-neutral response form: they are relayed only from upstreams that
 * serve them natively (pass-through), so there is nothing to convert.
 */
function notConvertible(): never {
  throw new RelayRequestError(
    'request:unsupported_protocol',
    'openai-embeddings responses cannot be converted from another protocol; use a channel that serves /v1/embeddings',
  );
}

/** The codec for clients of `POST /v1/embeddings` and `POST /v1/engines/{model}/embeddings`. */
export const openAIEmbeddingsCodec: ProtocolCodec = {
  protocol: 'openai-embeddings',
  parseRequest: parseOpenAIEmbeddingsRequest,
  formatError: (error: ClientError) => formatOpenAIErrorBody(error),
  formatStreamError: (error: ClientError) => `data: ${formatOpenAIErrorBody(error)}\n\n`,
  toClientResponse: notConvertible,
  toClientStream: notConvertible,
};
