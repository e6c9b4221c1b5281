import type { PromptInput } from '../../spec/prompt-input.js';
import { describe } from '../openai-chat/openai-chat-schemas.js';
import { invalidField } from './openai-request-fields.js';

/**
 * A {@link PromptInput} for OpenAI text inputs (completions `prompt`, embeddings `input`) that
 * may carry prompt tokens the client sent already tokenized. Those are counted by their length,
 * never decoded: token ids belong to the model's own vocabulary.
 */
export interface OpenAITextPromptInput extends PromptInput {
  readonly texts: readonly string[];
  /**
   * How many token ids the client sent (`[1212, 318]` counts 2, `[[1212], [318, 257]]` counts 3);
   * absent when the input was text.
   */
  readonly tokenCount?: number;
}

/**
 * Validates and reads an OpenAI text input, the union OpenAI accepts for completions `prompt`
 * and embeddings `input`: a string, an array of strings, an array of token ids (non-negative
 * integers), or an array of token id arrays. The first element decides the form; every other
 * element must have the same form. Strings are returned by reference (no copies, no tokenizing).
 * Throws `RelayRequestError` naming the offending element (`prompt[2] must be a string, got ...`).
 */
export function readOpenAITextInput(value: unknown, field: string): OpenAITextPromptInput {
  if (value === undefined || value === null) invalidField(field, `"${field}" is required`);
  if (typeof value === 'string') return { texts: [value] };
  if (!Array.isArray(value)) {
    invalidField(
      field,
      `"${field}" must be a string, an array of strings, an array of token ids or an array of token id arrays, got ${describe(value)}`,
    );
  }
  if (value.length === 0) invalidField(field, `"${field}" must not be an empty array`);
  const first: unknown = value[0];
  if (typeof first === 'string') {
    for (let index = 1; index < value.length; index++) {
      const item: unknown = value[index];
      if (typeof item !== 'string') {
        invalidField(`${field}[${index}]`, `${field}[${index}] must be a string, got ${describe(item)}`);
      }
    }
    return { texts: value as string[] };
  }
  if (typeof first === 'number') {
    checkTokenIds(value, field);
    return { texts: [], tokenCount: value.length };
  }
  if (Array.isArray(first)) {
    let tokenCount = 0;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      if (!Array.isArray(item)) {
        invalidField(
          `${field}[${index}]`,
          `${field}[${index}] must be an array of token ids, got ${describe(item)}`,
        );
      }
      checkTokenIds(item, `${field}[${index}]`);
      tokenCount += item.length;
    }
    return { texts: [], tokenCount };
  }
  invalidField(
    `${field}[0]`,
    `${field}[0] must be a string, a token id or an array of token ids, got ${describe(first)}`,
  );
}

function checkTokenIds(ids: readonly unknown[], path: string): void {
  for (let index = 0; index < ids.length; index++) {
    const id = ids[index];
    if (typeof id !== 'number' || !Number.isInteger(id) || id < 0) {
      invalidField(
        `${path}[${index}]`,
        `${path}[${index}] must be a token id (a non-negative integer), got ${describe(id)}`,
      );
    }
  }
}
