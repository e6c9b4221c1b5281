import type { PromptInput } from '../spec/prompt-input.js';
import type { Protocol } from '../spec/protocol.js';
import type { ClientError, ClientRequest, ProtocolCodec } from '../spec/protocol-codec.js';
import type { RelayCall } from '../spec/relay-call.js';
import { RelayRequestError } from '../spec/request-error.js';
import { formatOpenAIErrorBody } from './openai-chat/openai-chat-wire.js';
import { readJsonObjectBody } from './read-json-body.js';

/** What a native-only protocol's validator extracts from the body. */
export interface NativeOnlyFields<P extends PromptInput> {
  readonly model: string;
  readonly prompt: P;
}

/**
 * A non-streaming OpenAI-shaped protocol whose responses have no protocol-neutral form
 * (embeddings, moderations): relayed only by pass-through from upstreams that serve it natively.
 * Returns the request parser and the codec built on it.
 */
export function createNativeOnlyCodec<P extends PromptInput>(
  protocol: Protocol,
  endpoint: string,
  validate: (body: Readonly<Record<string, unknown>>, path: string | undefined) => NativeOnlyFields<P>,
): { parse: (request: ClientRequest) => RelayCall & { readonly prompt: P }; codec: ProtocolCodec } {
  const parse = (request: ClientRequest) => {
    const body = readJsonObjectBody(request);
    const fields = validate(body, request.path);
    return {
      protocol,
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
  };
  const notConvertible = (): never => {
    throw new RelayRequestError(
      'request:unsupported_protocol',
      `${protocol} responses cannot be converted from another protocol; use a channel that serves ${endpoint}`,
    );
  };
  const codec: ProtocolCodec = {
    protocol,
    parseRequest: parse,
    formatError: (error: ClientError) => formatOpenAIErrorBody(error),
    formatStreamError: (error: ClientError) => `data: ${formatOpenAIErrorBody(error)}\n\n`,
    toClientResponse: notConvertible,
    toClientStream: notConvertible,
  };
  return { parse, codec };
}
