import { RelayRequestError } from '../../spec/request-error.js';
import { describe, MAX_TOKENS_LIMIT } from '../openai-chat/openai-chat-schemas.js';

/** The typed fields of an Anthropic Messages request the gateway reads; the rest stays opaque. */
export interface AnthropicMessagesFields {
  readonly model: string;
  readonly stream: boolean;
  readonly maxTokens: number | undefined;
}

const TOOL_CHOICE_TYPES = new Set(['auto', 'any', 'tool', 'none']);

/**
 * Validates an Anthropic Messages body strictly (no coercion), with messages that name the field
 * (`messages[1].content[0].text must be a string`). Block types the gateway does not convert
 * (documents, server tool results...) are checked only for a string `type`. Throws
 * `RelayRequestError` (`request:invalid_body`).
 */
export function validateAnthropicMessagesRequest(
  body: Readonly<Record<string, unknown>>,
): AnthropicMessagesFields {
  const model = body.model;
  if (model === undefined || model === null) invalid('model', '"model" is required');
  if (typeof model !== 'string') invalid('model', `"model" must be a string, got ${describe(model)}`);
  if (model.trim() === '') invalid('model', '"model" must not be empty');

  const messages = body.messages;
  if (messages === undefined || messages === null) invalid('messages', '"messages" is required');
  if (!Array.isArray(messages)) invalid('messages', `"messages" must be an array, got ${describe(messages)}`);
  if (messages.length === 0) invalid('messages', '"messages" must contain at least one message');
  messages.forEach((message: unknown, index) => {
    validateMessage(message, `messages[${index}]`);
  });

  let maxTokens: number | undefined;
  const rawMax = body.max_tokens;
  if (rawMax !== undefined && rawMax !== null) {
    if (typeof rawMax !== 'number' || !Number.isInteger(rawMax) || rawMax < 1) {
      invalid('max_tokens', `"max_tokens" must be a positive integer, got ${describe(rawMax)}`);
    }
    if (rawMax > MAX_TOKENS_LIMIT) invalid('max_tokens', `"max_tokens" must not exceed ${MAX_TOKENS_LIMIT}`);
    maxTokens = rawMax;
  }
  const stream = body.stream;
  if (stream !== undefined && stream !== null && typeof stream !== 'boolean') {
    invalid('stream', `"stream" must be a boolean, got ${describe(stream)}`);
  }
  validateSystem(body.system);
  validateTools(body.tools);
  validateToolChoice(body.tool_choice);
  for (const field of ['temperature', 'top_p', 'top_k'] as const) {
    const value = body[field];
    if (value !== undefined && value !== null && (typeof value !== 'number' || !Number.isFinite(value))) {
      invalid(field, `"${field}" must be a number, got ${describe(value)}`);
    }
  }
  const stops = body.stop_sequences;
  if (stops !== undefined && stops !== null) {
    if (!Array.isArray(stops)) invalid('stop_sequences', `"stop_sequences" must be an array of strings`);
    stops.forEach((stop: unknown, index) => {
      if (typeof stop !== 'string') {
        invalid(
          `stop_sequences[${index}]`,
          `stop_sequences[${index}] must be a string, got ${describe(stop)}`,
        );
      }
    });
  }
  for (const field of ['metadata', 'thinking'] as const) {
    const value = body[field];
    if (value !== undefined && value !== null && !isRecord(value)) {
      invalid(field, `"${field}" must be an object, got ${describe(value)}`);
    }
  }
  return { model, stream: stream === true, maxTokens };
}

function validateMessage(message: unknown, path: string): void {
  if (!isRecord(message)) invalid(path, `${path} must be an object, got ${describe(message)}`);
  const role = message.role;
  // `system` messages inside `messages[]` are Claude's newest request shape (Claude Code sends them).
  if (role !== 'user' && role !== 'assistant' && role !== 'system') {
    invalid(
      `${path}.role`,
      `${path}.role must be "user", "assistant" or "system", got ${describeValue(role)}`,
    );
  }
  const content = message.content;
  if (typeof content === 'string') return;
  if (!Array.isArray(content)) {
    invalid(
      `${path}.content`,
      `${path}.content must be a string or an array of content blocks, got ${describe(content)}`,
    );
  }
  content.forEach((block: unknown, index) => {
    validateBlock(block, `${path}.content[${index}]`);
  });
}

/** Validates one content block (messages, tool results). */
function validateBlock(block: unknown, path: string): void {
  if (!isRecord(block)) invalid(path, `${path} must be an object, got ${describe(block)}`);
  const type = block.type;
  if (typeof type !== 'string' || type === '')
    invalid(`${path}.type`, `${path}.type must be a non-empty string`);
  switch (type) {
    case 'text':
      requireString(block, 'text', path);
      return;
    case 'image': {
      const source = block.source;
      if (!isRecord(source)) invalid(`${path}.source`, `${path}.source must be an object`);
      if (source.type === 'base64') {
        requireString(source, 'media_type', `${path}.source`);
        requireString(source, 'data', `${path}.source`);
      } else if (source.type === 'url') {
        requireString(source, 'url', `${path}.source`);
      } else if (source.type !== 'file') {
        invalid(`${path}.source.type`, `${path}.source.type must be "base64", "url" or "file"`);
      }
      return;
    }
    case 'tool_use':
      requireString(block, 'id', path);
      requireString(block, 'name', path);
      if (!isRecord(block.input)) invalid(`${path}.input`, `${path}.input must be an object`);
      return;
    case 'tool_result': {
      requireString(block, 'tool_use_id', path);
      const content = block.content;
      if (content === undefined || content === null || typeof content === 'string') return;
      if (!Array.isArray(content)) {
        invalid(`${path}.content`, `${path}.content must be a string or an array of content blocks`);
      }
      content.forEach((inner: unknown, index) => {
        validateBlock(inner, `${path}.content[${index}]`);
      });
      return;
    }
    case 'thinking':
      requireString(block, 'thinking', path);
      return;
    default:
      return;
  }
}

function validateSystem(system: unknown): void {
  if (system === undefined || system === null || typeof system === 'string') return;
  if (!Array.isArray(system)) {
    invalid('system', `"system" must be a string or an array of text blocks, got ${describe(system)}`);
  }
  system.forEach((block: unknown, index) => {
    const path = `system[${index}]`;
    if (!isRecord(block) || block.type !== 'text') invalid(path, `${path} must be a text block`);
    requireString(block, 'text', path);
  });
}

function validateTools(tools: unknown): void {
  if (tools === undefined || tools === null) return;
  if (!Array.isArray(tools)) invalid('tools', `"tools" must be an array, got ${describe(tools)}`);
  tools.forEach((tool: unknown, index) => {
    const path = `tools[${index}]`;
    if (!isRecord(tool)) invalid(path, `${path} must be an object, got ${describe(tool)}`);
    const schema = tool.input_schema;
    // Server tools (web_search, bash, MCP toolsets...) have a `type` and no schema; their other
    // fields are Anthropic's to check.
    if (schema === undefined && typeof tool.type === 'string' && tool.type !== 'custom') return;
    requireString(tool, 'name', path);
    if (!isRecord(schema)) invalid(`${path}.input_schema`, `${path}.input_schema must be an object`);
  });
}

function validateToolChoice(choice: unknown): void {
  if (choice === undefined || choice === null) return;
  if (!isRecord(choice)) invalid('tool_choice', `"tool_choice" must be an object, got ${describe(choice)}`);
  if (typeof choice.type !== 'string' || !TOOL_CHOICE_TYPES.has(choice.type)) {
    invalid('tool_choice.type', '"tool_choice.type" must be one of "auto", "any", "tool", "none"');
  }
  if (choice.type === 'tool') requireString(choice, 'name', 'tool_choice');
}

function requireString(record: Record<string, unknown>, field: string, path: string): void {
  const value = record[field];
  if (typeof value !== 'string') {
    invalid(`${path}.${field}`, `${path}.${field} must be a string, got ${describe(value)}`);
  }
}

function describeValue(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : describe(value);
}

function invalid(param: string, message: string): never {
  throw new RelayRequestError('request:invalid_body', message, { param });
}

/** A plain JSON object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
