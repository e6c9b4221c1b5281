import { readModelField } from '../openai-completions/openai-request-fields.js';
import { type OpenAITextPromptInput, readOpenAITextInput } from '../openai-completions/openai-text-input.js';

/** The few typed fields of an OpenAI embeddings request the gateway reads. */
export interface OpenAIEmbeddingsRequestFields {
  readonly model: string;
  /** `input` for prompt-token estimation. */
  readonly prompt: OpenAITextPromptInput;
}

const ENGINES_PATH = /\/engines\/([^/]+)\/embeddings\/?$/;

/**
 * The model named by a legacy `/v1/engines/{model}/embeddings` path (percent-decoded), or
 * `undefined` for any other path.
 */
export function readEnginesPathModel(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  const match = ENGINES_PATH.exec(path);
  if (match === null) return undefined;
  try {
    return decodeURIComponent(match[1]!);
  } catch {
    return match[1];
  }
}

/**
 * Validates the fields of an OpenAI embeddings body the gateway depends on: `model` (a
 * non-empty string; when the body has none, the model of a `/v1/engines/{model}/embeddings`
 * path) and `input` (required: a string, strings, token ids or token id arrays). Everything
 * else (`encoding_format`, `dimensions`, `user`...) is left to the upstream. Throws
 * `RelayRequestError` (`request:invalid_body`).
 */
export function validateOpenAIEmbeddingsRequest(
  body: Readonly<Record<string, unknown>>,
  path?: string,
): OpenAIEmbeddingsRequestFields {
  const pathModel = readEnginesPathModel(path);
  const model = readModelField(body, pathModel?.trim() ? pathModel : undefined);
  const prompt = readOpenAITextInput(body.input, 'input');
  return { model, prompt };
}
