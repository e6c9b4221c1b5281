import type { ClientError, ClientRequest, ProtocolCodec } from '../../spec/protocol-codec.js';
import type { RelayCall } from '../../spec/relay-call.js';
import { RelayRequestError } from '../../spec/request-error.js';
import { formatOpenAIErrorBody } from '../openai-chat/openai-chat-wire.js';
import { readJsonObjectBody } from '../read-json-body.js';
import { validateOpenAIModerationsRequest } from './openai-moderations-schemas.js';

/**
 * Parses an OpenAI moderations request (`POST /v1/moderations`) into a {@link RelayCall}. A
 * request without a model is billed as `text-moderation-stable`; the adapter then writes that
 * name into the forwarded body. Moderations never stream. The prompt input lists the input's
 * texts.
 */
export function parseOpenAIModerationsRequest(request: ClientRequest): RelayCall {
  const body = readJsonObjectBody(request);
  const fields = validateOpenAIModerationsRequest(body);
  return {
    protocol: 'openai-moderations',
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
 * Moderation results have no protocol-neutral response form: they are relayed only from
 * upstreams that serve them natively (pass-through), so there is nothing to convert.
 */
function notConvertible(): never {
  throw new RelayRequestError(
    'request:unsupported_protocol',
    'openai-moderations responses cannot be converted from another protocol; use a channel that serves /v1/moderations',
  );
}

/** The codec for clients of `POST /v1/moderations`. */
export const openAIModerationsCodec: ProtocolCodec = {
  protocol: 'openai-moderations',
  parseRequest: parseOpenAIModerationsRequest,
  formatError: (error: ClientError) => formatOpenAIErrorBody(error),
  formatStreamError: (error: ClientError) => `data: ${formatOpenAIErrorBody(error)}\n\n`,
  toClientResponse: notConvertible,
  toClientStream: notConvertible,
};
