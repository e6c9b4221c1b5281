import type { RelayCall } from '../../spec/relay-call.js';
import { RelayRequestError } from '../../spec/request-error.js';
import { openAIChatPromptInput } from '../openai-chat/openai-chat-prompt.js';

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
  throw new RelayRequestError('request:unsupported_protocol', message, param === undefined ? {} : { param });
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
 * - function tools → chat tools, `tool_choice`, `text.format` → `response_format`,
 *   `max_output_tokens` → `max_tokens`, `reasoning.effort` → `reasoning_effort`, sampling fields
 *   copied, `stream` → `stream` + `stream_options.include_usage` (Responses streams always end
 *   with usage).
 *
 * Throws `RelayRequestError` (`request:unsupported_protocol`, 501) for what chat cannot express:
 * `previous_response_id` and stored prompts (server-side state), built-in tools (web search, file
 * search...), item references, file ids for images.
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
    chat.tools = body.tools.map((tool, index) => convertTool(tool as Json, index));
  }
  if (body.tool_choice !== undefined && body.tool_choice !== null) {
    chat.tool_choice = convertToolChoice(body.tool_choice);
  }
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

function convertTool(tool: Json, index: number): Json {
  if (tool.type !== 'function') {
    unsupported(
      `tools[${index}] of type "${String(tool.type)}" is a built-in Responses tool and needs a channel that serves /v1/responses natively`,
      `tools[${index}]`,
    );
  }
  const fn: Json = { name: tool.name };
  if (tool.description !== undefined) fn.description = tool.description;
  if (tool.parameters !== undefined) fn.parameters = tool.parameters;
  if (tool.strict !== undefined && tool.strict !== null) fn.strict = tool.strict;
  return { type: 'function', function: fn };
}

function convertToolChoice(choice: unknown): unknown {
  if (typeof choice === 'string') return choice;
  const record = choice as Json;
  if (record.type === 'function' && typeof record.name === 'string') {
    return { type: 'function', function: { name: record.name } };
  }
  unsupported(
    `"tool_choice" of type "${String(record.type)}" cannot be converted to chat completions`,
    'tool_choice',
  );
}
