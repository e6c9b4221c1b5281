import { readTokenLimit } from '../openai-chat/openai-chat-schemas.js';
import { readModelField, readStreamFields } from './openai-request-fields.js';
import { type OpenAITextPromptInput, readOpenAITextInput } from './openai-text-input.js';

/** The few typed fields of an OpenAI completions request the gateway reads. */
export interface OpenAICompletionsRequestFields {
  readonly model: string;
  readonly stream: boolean;
  readonly includeUsage: boolean;
  readonly maxTokens: number | undefined;
  /** `prompt` (and a string `suffix`) for prompt-token estimation. */
  readonly prompt: OpenAITextPromptInput;
}

/**
 * Validates the fields of an OpenAI `/v1/completions` body the gateway depends on: `model`
 * (required string), `prompt` (required: a string, strings, token ids or token id arrays),
 * `stream`, `stream_options.include_usage` and `max_tokens`. A string `suffix` (fill-in-the-middle)
 * is part of the prompt the upstream bills, so it joins the estimation texts; it is not
 * validated. Everything else is left to the upstream. Throws `RelayRequestError`
 * (`request:invalid_body`).
 */
export function validateOpenAICompletionsRequest(
  body: Readonly<Record<string, unknown>>,
): OpenAICompletionsRequestFields {
  const model = readModelField(body);
  let prompt = readOpenAITextInput(body.prompt, 'prompt');
  const { stream, includeUsage } = readStreamFields(body);
  const maxTokens = readTokenLimit(body, 'max_tokens');
  if (typeof body.suffix === 'string' && body.suffix !== '') {
    prompt = { ...prompt, texts: [...prompt.texts, body.suffix] };
  }
  return { model, stream, includeUsage, maxTokens, prompt };
}
