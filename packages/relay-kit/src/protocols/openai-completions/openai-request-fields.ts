import { RelayRequestError } from '../../spec/request-error.js';
import { describe } from '../openai-chat/openai-chat-schemas.js';

/** Throws the `request:invalid_body` error for `param` (the field path the client sees). */
export function invalidField(param: string, message: string): never {
  throw new RelayRequestError('request:invalid_body', message, { param });
}

/**
 * Reads the `model` field of an OpenAI request: a non-empty string. When `fallback` is given, a
 * missing, `null` or empty model takes it instead of failing (the reference treats an empty
 * string as absent: embeddings take the path's model, moderations a default).
 */
export function readModelField(body: Readonly<Record<string, unknown>>, fallback?: string): string {
  const model = body.model;
  if (fallback !== undefined && (model === undefined || model === null || model === '')) return fallback;
  if (model === undefined || model === null) invalidField('model', '"model" is required');
  if (typeof model !== 'string') invalidField('model', `"model" must be a string, got ${describe(model)}`);
  if (model.trim() === '') invalidField('model', '"model" must not be empty');
  return model;
}

/** The stream flags of an OpenAI request. */
export interface OpenAIStreamFields {
  readonly stream: boolean;
  /** `stream_options.include_usage`, only when streaming. */
  readonly includeUsage: boolean;
}

/**
 * Reads `stream` (boolean) and `stream_options.include_usage` (boolean inside an object), with
 * the same rules and messages as the chat codec. `include_usage` counts only on streamed calls.
 */
export function readStreamFields(body: Readonly<Record<string, unknown>>): OpenAIStreamFields {
  const stream = body.stream;
  if (stream !== undefined && stream !== null && typeof stream !== 'boolean') {
    invalidField('stream', `"stream" must be a boolean, got ${describe(stream)}`);
  }
  const streamOptions = body.stream_options;
  let includeUsage = false;
  if (streamOptions !== undefined && streamOptions !== null) {
    if (typeof streamOptions !== 'object' || Array.isArray(streamOptions)) {
      invalidField('stream_options', `"stream_options" must be an object, got ${describe(streamOptions)}`);
    }
    const flag = (streamOptions as Record<string, unknown>).include_usage;
    if (flag !== undefined && flag !== null && typeof flag !== 'boolean') {
      invalidField(
        'stream_options.include_usage',
        `"stream_options.include_usage" must be a boolean, got ${describe(flag)}`,
      );
    }
    includeUsage = flag === true;
  }
  return { stream: stream === true, includeUsage: stream === true && includeUsage };
}
