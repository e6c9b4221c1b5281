import type { PromptInput, PromptMessage, PromptPart, PromptTool } from '../../spec/prompt-input.js';
import { describe, readTokenLimit } from '../openai-chat/openai-chat-schemas.js';
import { invalidField, readModelField } from '../openai-completions/openai-request-fields.js';

/** The typed fields of a Responses request the gateway reads; everything else stays opaque. */
export interface OpenAIResponsesRequestFields {
  readonly model: string;
  readonly stream: boolean;
  /** `max_output_tokens`. */
  readonly maxTokens: number | undefined;
}

/**
 * Validates the fields of a `POST /v1/responses` body the gateway depends on: `model`; `input`
 * (a string or an array of item objects; optional, as a stored prompt or `previous_response_id`
 * may stand in for it); `instructions` (string or null); `stream` (boolean); `max_output_tokens`
 * (non-negative integer); `tools` (array of objects); `reasoning` and `text` (objects). Throws
 * `RelayRequestError` (`request:invalid_body`) naming the field.
 */
export function validateOpenAIResponsesRequest(
  body: Readonly<Record<string, unknown>>,
): OpenAIResponsesRequestFields {
  const model = readModelField(body);
  const input = body.input;
  if (input !== undefined && input !== null && typeof input !== 'string') {
    if (!Array.isArray(input)) {
      invalidField('input', `"input" must be a string or an array of items, got ${describe(input)}`);
    }
    input.forEach((item: unknown, index: number) => {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        invalidField(`input[${index}]`, `input[${index}] must be an object, got ${describe(item)}`);
      }
    });
  }
  const instructions = body.instructions;
  if (instructions !== undefined && instructions !== null && typeof instructions !== 'string') {
    invalidField('instructions', `"instructions" must be a string, got ${describe(instructions)}`);
  }
  const stream = body.stream;
  if (stream !== undefined && stream !== null && typeof stream !== 'boolean') {
    invalidField('stream', `"stream" must be a boolean, got ${describe(stream)}`);
  }
  const tools = body.tools;
  if (tools !== undefined && tools !== null) {
    if (!Array.isArray(tools)) invalidField('tools', `"tools" must be an array, got ${describe(tools)}`);
    tools.forEach((tool: unknown, index: number) => {
      if (typeof tool !== 'object' || tool === null || Array.isArray(tool)) {
        invalidField(`tools[${index}]`, `tools[${index}] must be an object, got ${describe(tool)}`);
      }
    });
  }
  for (const field of ['reasoning', 'text'] as const) {
    const value = body[field];
    if (value !== undefined && value !== null && (typeof value !== 'object' || Array.isArray(value))) {
      invalidField(field, `"${field}" must be an object, got ${describe(value)}`);
    }
  }
  return { model, stream: stream === true, maxTokens: readTokenLimit(body, 'max_output_tokens') };
}

/**
 * The prompt-estimation input of a Responses body: `instructions` as a system message, message
 * items (text parts, images, audio, files), function calls and their outputs as text, and the
 * function tools. Tolerant of unknown items (skipped).
 */
export function openAIResponsesPromptInput(body: Readonly<Record<string, unknown>>): PromptInput {
  const messages: PromptMessage[] = [];
  if (typeof body.instructions === 'string' && body.instructions !== '') {
    messages.push({ role: 'system', content: body.instructions });
  }
  const input = body.input;
  if (typeof input === 'string') messages.push({ role: 'user', content: input });
  else if (Array.isArray(input)) {
    for (const item of input) {
      if (typeof item !== 'object' || item === null) continue;
      const record = item as Record<string, unknown>;
      const type = record.type ?? 'message';
      if (type === 'message') {
        const role = typeof record.role === 'string' ? record.role : 'user';
        const content = record.content;
        if (typeof content === 'string') messages.push({ role, content });
        else if (Array.isArray(content)) messages.push({ role, content: promptParts(content) });
      } else if (type === 'function_call') {
        const parts: PromptPart[] = [];
        if (typeof record.name === 'string') parts.push({ type: 'text', text: record.name });
        if (typeof record.arguments === 'string') parts.push({ type: 'text', text: record.arguments });
        messages.push({ role: 'assistant', content: parts });
      } else if (type === 'function_call_output') {
        const output = record.output;
        messages.push({
          role: 'tool',
          content: typeof output === 'string' ? output : JSON.stringify(output),
        });
      }
    }
  }
  const tools: PromptTool[] = [];
  if (Array.isArray(body.tools)) {
    for (const tool of body.tools) {
      const record = tool as Record<string, unknown>;
      if (record?.type === 'function' && typeof record.name === 'string') {
        tools.push({
          name: record.name,
          description: typeof record.description === 'string' ? record.description : undefined,
          parameters: record.parameters,
        });
      }
    }
  }
  return tools.length > 0 ? { messages, tools } : { messages };
}

function promptParts(content: readonly unknown[]): PromptPart[] {
  const parts: PromptPart[] = [];
  for (const part of content) {
    if (typeof part !== 'object' || part === null) continue;
    const record = part as Record<string, unknown>;
    switch (record.type) {
      case 'input_image':
        parts.push({ type: 'image', detail: typeof record.detail === 'string' ? record.detail : undefined });
        break;
      case 'input_audio':
        parts.push({ type: 'audio' });
        break;
      case 'input_file':
        parts.push({ type: 'file' });
        break;
      default:
        if (typeof record.text === 'string') parts.push({ type: 'text', text: record.text });
        else if (typeof record.refusal === 'string') parts.push({ type: 'text', text: record.refusal });
    }
  }
  return parts;
}
