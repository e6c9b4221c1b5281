import type { ClientError, ClientRequest, ProtocolCodec } from '../../spec/protocol-codec.js';
import type { RelayCall } from '../../spec/relay-call.js';
import type { UnifiedResponse } from '../../spec/unified-response.js';
import { formatOpenAIErrorBody } from '../openai-chat/openai-chat-wire.js';
import { readJsonObjectBody } from '../read-json-body.js';
import { openAIResponsesPromptInput, validateOpenAIResponsesRequest } from './openai-responses-schemas.js';
import { createOpenAIResponsesStreamWriter } from './openai-responses-stream-writer.js';
import { responsesToChatCall } from './openai-responses-to-chat.js';
import {
  formatResponsesStreamError,
  outputItems,
  responseObject,
  responsesId,
  responsesStatus,
  toResponsesUsage,
} from './openai-responses-wire.js';

/**
 * Parses an OpenAI Responses request (`POST /v1/responses`) into a {@link RelayCall}. The body
 * stays opaque (`previous_response_id`, `store`, `include`... reach a native upstream untouched)
 * and the raw bytes are kept for byte-exact forwarding. `maxTokens` is `max_output_tokens`.
 * `includeUsage` is false: Responses streams always end with usage in `response.completed`, and
 * the protocol has no separate usage event.
 */
export function parseOpenAIResponsesRequest(request: ClientRequest): RelayCall {
  const body = readJsonObjectBody(request);
  const fields = validateOpenAIResponsesRequest(body);
  return {
    protocol: 'openai-responses',
    model: fields.model,
    upstreamModel: fields.model,
    stream: fields.stream,
    includeUsage: false,
    maxTokens: fields.maxTokens,
    body,
    rawBody: request.rawBody,
    path: request.path,
    prompt: openAIResponsesPromptInput(body),
  };
}

/**
 * A converted non-stream response as a Responses body (`object: "response"`, id `resp_…`):
 * output items for the first choice (reasoning summary, assistant message with `output_text`,
 * function calls), `status` `completed` or `incomplete` with `incomplete_details`, and usage with
 * cached and reasoning token details.
 */
export function formatOpenAIResponsesResponse(response: UnifiedResponse, call: RelayCall): string {
  const choice = response.choices.find((candidate) => candidate.index === 0) ?? response.choices[0];
  const { status, incomplete_details } = responsesStatus(choice?.finishReason);
  return JSON.stringify(
    responseObject(call, {
      id: response.id.startsWith('resp_') ? response.id : responsesId('resp'),
      createdAt: response.created,
      model: response.model || call.model,
      status,
      incompleteDetails: incomplete_details,
      output: outputItems(choice),
      usage: response.usage === undefined ? null : toResponsesUsage(response.usage),
    }),
  );
}

/** The codec for clients of `POST /v1/responses`. */
export const openAIResponsesCodec: ProtocolCodec = {
  protocol: 'openai-responses',
  parseRequest: parseOpenAIResponsesRequest,
  toChatCall: responsesToChatCall,
  formatError: (error: ClientError) => formatOpenAIErrorBody(error),
  formatStreamError: (error: ClientError) => formatResponsesStreamError(error),
  toClientResponse: formatOpenAIResponsesResponse,
  toClientStream: createOpenAIResponsesStreamWriter,
};
