import type { RelayCall } from '../../spec/relay-call.js';
import { RelayRequestError } from '../../spec/request-error.js';
import { openAIChatPromptInput } from '../openai-chat/openai-chat-prompt.js';
import { convertResponsesTools, convertToolChoice } from './responses-tools-to-chat.js';

type Json = Record<string, unknown>;
type ChatMessage = Json & { role: string };

/** Request fields copied unchanged from a Responses body to the chat body. */
const COPIED_FIELDS = [
  'temperature',
  'top_p',
  'parallel_tool_calls',
  'user',
  'service_tier',
  'prompt_cache_key',
  'safety_identifier',
] as const;

function unsupported(message: string, param?: string): never {
  throw new RelayRequestError('request:invalid_body', message, param === undefined ? {} : { param });
}

/**
 * Converts a Responses call into the hub format, an `openai-chat` call, for channels that do not
 * serve `/v1/responses`:
 *
 * - `instructions` → a leading `system` message; `input` string → one user message; message items
 *   (`input_text`/`output_text` → text parts, `input_image` → `image_url`, `input_audio`,
 *   `input_file` → `file`); `function_call` items → assistant `tool_calls` (consecutive calls are
 *   grouped into one assistant message); `function_call_output` → `tool` messages; reasoning items
 *   are dropped (chat has no place for them).
 * - tools as `responses-tools-to-chat.ts` says (functions, `namespace` groups flattened,
 *   `web_search` → `web_search_options`), `tool_choice`, `text.format` → `response_format`,
 *   `max_output_tokens` → `max_tokens`, `reasoning.effort` → `reasoning_effort`, sampling fields
 *   copied, `stream` → `stream` + `stream_options.include_usage` (Responses streams always end
 *   with usage).
 *
 * `include`, `store` and `client_metadata` have no place in chat (no converted upstream keeps
 * server-side state) and are dropped. Throws `RelayRequestError` (a 400 for the client) for what
 * chat cannot express: `previous_response_id` and stored prompts (server-side state), built-in
 * tools other than web search, item references, file ids for images.
 */
export function responsesToChatCall(call: RelayCall): RelayCall {
  const body = call.body;
  if (typeof body.previous_response_id === 'string' && body.previous_response_id !== '') {
    unsupported(
      '"previous_response_id" needs a channel that serves /v1/responses natively; send the full conversation instead',
      'previous_response_id',
    );
  }
  if (body.prompt !== undefined && body.prompt !== null) {
    unsupported('stored prompts ("prompt") need a channel that serves /v1/responses natively', 'prompt');
  }
  const messages: ChatMessage[] = [];
  if (typeof body.instructions === 'string' && body.instructions !== '') {
    messages.push({ role: 'system', content: body.instructions });
  }
  const input = body.input;
  if (typeof input === 'string') messages.push({ role: 'user', content: input });
  else if (Array.isArray(input))
    input.forEach((item, index) => {
      convertItem(item as Json, index, messages);
    });
  if (messages.length === 0) unsupported('"input" is required when converting to chat completions', 'input');

  const chat: Json = { model: call.upstreamModel, messages };
  for (const field of COPIED_FIELDS) if (body[field] !== undefined) chat[field] = body[field];
  if (call.maxTokens !== undefined) chat.max_tokens = call.maxTokens;
  const reasoning = body.reasoning as Json | null | undefined;
  if (reasoning && typeof reasoning.effort === 'string') chat.reasoning_effort = reasoning.effort;
  const format = (body.text as Json | null | undefined)?.format as Json | undefined;
  if (format && typeof format === 'object') {
    if (format.type === 'json_schema') {
      const schema: Json = { name: format.name ?? 'response', schema: format.schema };
      if (format.description !== undefined) schema.description = format.description;
      if (format.strict !== undefined) schema.strict = format.strict;
      chat.response_format = { type: 'json_schema', json_schema: schema };
    } else if (format.type === 'json_object') chat.response_format = { type: 'json_object' };
  }
  if (Array.isArray(body.tools) && body.tools.length > 0) {
    const tools = convertResponsesTools(body.tools);
    if (tools.functions.length > 0) chat.tools = tools.functions;
    if (tools.webSearch !== undefined) chat.web_search_options = tools.webSearch;
  }
  const toolChoice = convertToolChoice(body.tool_choice);
  if (toolChoice !== undefined && Array.isArray(chat.tools)) chat.tool_choice = toolChoice;
  if (call.stream) {
    chat.stream = true;
    chat.stream_options = { include_usage: true };
  }
  return {
    protocol: 'openai-chat',
    model: call.model,
    upstreamModel: call.upstreamModel,
    stream: call.stream,
    includeUsage: call.stream,
    maxTokens: call.maxTokens,
    body: chat,
    rawBody: undefined,
    path: '/v1/chat/completions',
    prompt: openAIChatPromptInput(chat),
  };
}

function convertItem(item: Json, index: number, messages: ChatMessage[]): void {
  const type = item.type ?? 'message';
  switch (type) {
    case 'message': {
      const role = typeof item.role === 'string' ? item.role : 'user';
      const content = item.content;
      if (typeof content === 'string') messages.push({ role, content });
      else if (Array.isArray(content)) {
        const parts = content.map((part, partIndex) => convertPart(part as Json, index, partIndex));
        // Assistant history is plain text in chat.
        const allText = parts.every((part) => part.type === 'text');
        messages.push({
          role,
          content: allText && role === 'assistant' ? parts.map((part) => part.text).join('') : parts,
        });
      } else messages.push({ role, content: '' });
      return;
    }
    case 'function_call': {
      const toolCall = {
        id: typeof item.call_id === 'string' ? item.call_id : String(item.id ?? `call_${index}`),
        type: 'function',
        function: { name: item.name, arguments: typeof item.arguments === 'string' ? item.arguments : '{}' },
      };
      const last = messages[messages.length - 1];
      if (last !== undefined && last.role === 'assistant' && Array.isArray(last.tool_calls)) {
        last.tool_calls.push(toolCall);
      } else if (last !== undefined && last.role === 'assistant' && last.tool_calls === undefined) {
        last.tool_calls = [toolCall];
      } else messages.push({ role: 'assistant', content: null, tool_calls: [toolCall] });
      return;
    }
    case 'function_call_output': {
      const output = item.output;
      messages.push({
        role: 'tool',
        tool_call_id: item.call_id,
        content: typeof output === 'string' ? output : JSON.stringify(output ?? ''),
      });
      return;
    }
    case 'reasoning':
    // Records of the upstream's own web searches: nothing a chat upstream can take.
    case 'web_search_call':
      return;
    default:
      unsupported(
        `input[${index}] of type "${String(type)}" cannot be converted to chat completions`,
        `input[${index}]`,
      );
  }
}

function convertPart(part: Json, index: number, partIndex: number): Json {
  const param = `input[${index}].content[${partIndex}]`;
  switch (part.type) {
    case 'input_text':
    case 'output_text':
    case 'text':
      return { type: 'text', text: typeof part.text === 'string' ? part.text : '' };
    case 'refusal':
      return { type: 'text', text: typeof part.refusal === 'string' ? part.refusal : '' };
    case 'input_image': {
      if (typeof part.image_url !== 'string') {
        unsupported(`${param}: images given by file_id cannot be converted to chat completions`, param);
      }
      const image: Json = { url: part.image_url };
      if (typeof part.detail === 'string') image.detail = part.detail;
      return { type: 'image_url', image_url: image };
    }
    case 'input_audio':
      return { type: 'input_audio', input_audio: part.input_audio };
    case 'input_file': {
      const file: Json = {};
      for (const key of ['file_data', 'file_id', 'filename'] as const)
        if (part[key] !== undefined) file[key] = part[key];
      return { type: 'file', file };
    }
    default:
      unsupported(`${param} of type "${String(part.type)}" cannot be converted to chat completions`, param);
  }
}
