import { RelayRequestError } from '../../spec/request-error.js';

/** Largest accepted token limit (new-api rejects `max_tokens > MaxInt32 / 2`). */
export const MAX_TOKENS_LIMIT = 1_073_741_823;

/** The few typed fields of an OpenAI chat request the gateway reads; everything else is opaque. */
export interface OpenAIChatRequestFields {
  readonly model: string;
  readonly stream: boolean;
  readonly includeUsage: boolean;
  readonly maxTokens: number | undefined;
}

/**
 * Validates the fields of an OpenAI chat completions body the gateway depends on, with messages
 * that name the field (`messages[2].role must be a string`). Fields the gateway does not read are
 * left to the upstream to judge. Throws `RelayRequestError` (`request:invalid_body`).
 */
export function validateOpenAIChatRequest(body: Readonly<Record<string, unknown>>): OpenAIChatRequestFields {
  const model = body.model;
  if (model === undefined || model === null) invalid('model', '"model" is required');
  if (typeof model !== 'string') invalid('model', `"model" must be a string, got ${describe(model)}`);
  if (model.trim() === '') invalid('model', '"model" must not be empty');

  const messages = body.messages;
  if (messages === undefined || messages === null) invalid('messages', '"messages" is required');
  if (!Array.isArray(messages)) invalid('messages', `"messages" must be an array, got ${describe(messages)}`);
  if (messages.length === 0) invalid('messages', '"messages" must contain at least one message');
  for (let index = 0; index < messages.length; index++) {
    const message: unknown = messages[index];
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      invalid(`messages[${index}]`, `messages[${index}] must be an object, got ${describe(message)}`);
    }
    const record = message as Record<string, unknown>;
    if (typeof record.role !== 'string' || record.role === '') {
      invalid(`messages[${index}].role`, `messages[${index}].role must be a non-empty string`);
    }
    const content = record.content;
    if (content !== undefined && content !== null && typeof content !== 'string' && !Array.isArray(content)) {
      invalid(
        `messages[${index}].content`,
        `messages[${index}].content must be a string or an array of content parts, got ${describe(content)}`,
      );
    }
  }

  const stream = body.stream;
  if (stream !== undefined && stream !== null && typeof stream !== 'boolean') {
    invalid('stream', `"stream" must be a boolean, got ${describe(stream)}`);
  }
  const streamOptions = body.stream_options;
  let includeUsage = false;
  if (streamOptions !== undefined && streamOptions !== null) {
    if (typeof streamOptions !== 'object' || Array.isArray(streamOptions)) {
      invalid('stream_options', `"stream_options" must be an object, got ${describe(streamOptions)}`);
    }
    const flag = (streamOptions as Record<string, unknown>).include_usage;
    if (flag !== undefined && flag !== null && typeof flag !== 'boolean') {
      invalid('stream_options.include_usage', '"stream_options.include_usage" must be a boolean');
    }
    includeUsage = flag === true;
  }
  const maxTokens = readTokenLimit(body, 'max_tokens');
  const maxCompletionTokens = readTokenLimit(body, 'max_completion_tokens');
  const tools = body.tools;
  if (tools !== undefined && tools !== null && !Array.isArray(tools)) {
    invalid('tools', `"tools" must be an array, got ${describe(tools)}`);
  }
  return {
    model,
    stream: stream === true,
    includeUsage: stream === true && includeUsage,
    maxTokens:
      maxTokens === undefined
        ? maxCompletionTokens
        : maxCompletionTokens === undefined
          ? maxTokens
          : Math.max(maxTokens, maxCompletionTokens),
  };
}

/** Reads an optional non-negative integer token limit; `0` and `null` mean "not set". */
export function readTokenLimit(body: Readonly<Record<string, unknown>>, field: string): number | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) {
    invalid(field, `"${field}" must be a non-negative integer, got ${describe(value)}`);
  }
  if (value > MAX_TOKENS_LIMIT) invalid(field, `"${field}" must not exceed ${MAX_TOKENS_LIMIT}`);
  return value === 0 ? undefined : value;
}

function invalid(param: string, message: string): never {
  throw new RelayRequestError('request:invalid_body', message, { param });
}

/** A short description of a JSON value's type for error messages. */
export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return `the number ${value}`;
    case 'boolean':
      return `${value}`;
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}
