import type { PromptInput } from '../../spec/prompt-input.js';
import { describe } from '../openai-chat/openai-chat-schemas.js';
import { invalidField, readModelField } from '../openai-completions/openai-request-fields.js';

/** The model a moderation request without one is billed and logged as (the reference's default). */
export const DEFAULT_MODERATION_MODEL = 'text-moderation-stable';

/** The few typed fields of an OpenAI moderations request the gateway reads. */
export interface OpenAIModerationsRequestFields {
  readonly model: string;
  /** The input's texts (image parts are not counted). */
  readonly prompt: PromptInput;
}

/**
 * Validates the fields of an OpenAI moderations body the gateway depends on: `input` (required:
 * a string, an array of strings, or an array of multimodal parts such as `{"type":"text","text"}`
 * and `{"type":"image_url",...}`) and `model` (a string; {@link DEFAULT_MODERATION_MODEL} when
 * missing or empty). Only text is collected for estimation. Throws `RelayRequestError`
 * (`request:invalid_body`).
 */
export function validateOpenAIModerationsRequest(
  body: Readonly<Record<string, unknown>>,
): OpenAIModerationsRequestFields {
  const model = readModelField(body, DEFAULT_MODERATION_MODEL);
  const input = body.input;
  if (input === undefined || input === null) invalidField('input', '"input" is required');
  let texts: string[];
  if (typeof input === 'string') {
    texts = [input];
  } else if (Array.isArray(input)) {
    if (input.length === 0) invalidField('input', '"input" must not be an empty array');
    texts = [];
    for (let index = 0; index < input.length; index++) {
      const item: unknown = input[index];
      if (typeof item === 'string') {
        texts.push(item);
        continue;
      }
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        invalidField(
          `input[${index}]`,
          `input[${index}] must be a string or a content part object, got ${describe(item)}`,
        );
      }
      const part = item as Record<string, unknown>;
      if (typeof part.type !== 'string' || part.type === '') {
        invalidField(`input[${index}].type`, `input[${index}].type must be a non-empty string`);
      }
      if (part.type === 'text') {
        if (typeof part.text !== 'string') {
          invalidField(
            `input[${index}].text`,
            `input[${index}].text must be a string, got ${describe(part.text)}`,
          );
        }
        texts.push(part.text);
      }
    }
  } else {
    invalidField(
      'input',
      `"input" must be a string, an array of strings or an array of content parts, got ${describe(input)}`,
    );
  }
  return { model, prompt: { texts } };
}
