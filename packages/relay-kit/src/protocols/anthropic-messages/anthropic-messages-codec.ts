import type { ClientRequest, ProtocolCodec } from '../../spec/protocol-codec.js';
import type { RelayCall } from '../../spec/relay-call.js';
import type { UnifiedResponse } from '../../spec/unified-response.js';
import { readJsonObjectBody } from '../read-json-body.js';
import { anthropicMessagesPromptInput } from './anthropic-messages-prompt.js';
import { validateAnthropicMessagesRequest } from './anthropic-messages-schemas.js';
import { createAnthropicMessagesStreamWriter } from './anthropic-messages-stream-writer.js';
import {
  formatAnthropicErrorBody,
  formatAnthropicStreamError,
  newAnthropicMessageId,
  newAnthropicToolUseId,
  parseToolInput,
  toAnthropicStopReason,
  toAnthropicUsage,
} from './anthropic-messages-wire.js';
import { anthropicToChatCall } from './anthropic-to-chat.js';

/** Client headers an Anthropic upstream needs (never credentials). */
const FORWARDED_HEADERS = ['anthropic-version', 'anthropic-beta'] as const;

/**
 * Parses an Anthropic Messages request (`POST /v1/messages`) into a {@link RelayCall}: strict
 * validation, prompt input for estimation, `anthropic-version` / `anthropic-beta` kept for the
 * upstream, raw bytes kept for byte-exact forwarding. Anthropic streams always carry usage, so
 * `includeUsage` is false (there is no usage event to add).
 */
export function parseAnthropicMessagesRequest(request: ClientRequest): RelayCall {
  const body = readJsonObjectBody(request);
  const fields = validateAnthropicMessagesRequest(body);
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers?.[name];
    const text = Array.isArray(value) ? value.join(',') : value;
    if (typeof text === 'string' && text !== '') headers[name] = text;
  }
  return {
    protocol: 'anthropic-messages',
    model: fields.model,
    upstreamModel: fields.model,
    stream: fields.stream,
    includeUsage: false,
    maxTokens: fields.maxTokens,
    body,
    rawBody: request.rawBody,
    path: request.path,
    headers,
    prompt: anthropicMessagesPromptInput(body),
  };
}

/**
 * A converted non-stream response as an Anthropic `message`: thinking block, text block and
 * `tool_use` blocks (arguments parsed; invalid JSON becomes `{}`) of the first choice, the mapped
 * stop reason, and usage with `input_tokens` excluding cached tokens.
 */
export function formatAnthropicMessagesResponse(response: UnifiedResponse, call: RelayCall): string {
  const choice = response.choices[0];
  const content: Record<string, unknown>[] = [];
  if (choice?.reasoning !== undefined && choice.reasoning !== '') {
    content.push({ type: 'thinking', thinking: choice.reasoning, signature: '' });
  }
  if (choice !== undefined && (choice.text !== '' || choice.toolCalls.length === 0)) {
    content.push({ type: 'text', text: choice.text });
  }
  for (const toolCall of choice?.toolCalls ?? []) {
    content.push({
      type: 'tool_use',
      id: toolCall.id || newAnthropicToolUseId(),
      name: toolCall.name,
      input: parseToolInput(toolCall.arguments),
    });
  }
  const reason = choice?.finishReason ?? 'stop';
  return JSON.stringify({
    id: response.id.startsWith('msg_') ? response.id : newAnthropicMessageId(),
    type: 'message',
    role: 'assistant',
    model: response.model || call.model,
    content,
    stop_reason: toAnthropicStopReason(reason, choice?.rawFinishReason),
    stop_sequence: null,
    usage: toAnthropicUsage(response.usage),
  });
}

/** The codec for clients of `POST /v1/messages` (Anthropic Messages). */
export const anthropicMessagesCodec: ProtocolCodec = {
  protocol: 'anthropic-messages',
  parseRequest: parseAnthropicMessagesRequest,
  toChatCall: anthropicToChatCall,
  formatError: formatAnthropicErrorBody,
  formatStreamError: formatAnthropicStreamError,
  toClientResponse: formatAnthropicMessagesResponse,
  toClientStream: createAnthropicMessagesStreamWriter,
};
