import { type MockRequestContext, nowSeconds } from '../mock-request-context.ts';
import { sendResultJson } from '../scenario-json-writer.ts';
import { countWords } from '../word-count.ts';
import { readFormInteger, readOpenAiForm } from './openai-form-request.ts';
import { mockImagePath, mockPngBase64 } from './openai-media-handlers.ts';

/** Input image tokens a gpt-image edit reports per uploaded image. */
export const editImageTokensPerImage = 65;
/** Output image tokens per generated image (as for generations). */
const outputTokensPerImage = 272;

/**
 * `POST /v1/images/edits` (multipart: `image` — or several `image[]` — file parts, `prompt`,
 * optional `mask`, `model` (default `dall-e-2`), `n`, `size`, `response_format`). Answers like
 * image generations: DALL·E models a `url` (or `b64_json` when asked), `gpt-image-*` models
 * `b64_json` with token usage (text tokens = words of the prompt, 65 image tokens per uploaded
 * image, 272 output tokens per image).
 */
export async function handleOpenAiImageEdit(context: MockRequestContext): Promise<void> {
  const parsed = readOpenAiForm(context, ['prompt'], ['image', 'image[]']);
  if (!parsed) return;
  const { form, files } = parsed;
  const { scenario } = context;
  const model = form.fields.get('model') || 'dall-e-2';
  const count = readFormInteger(form, 'n', 1, 1, 10);
  const imageTokenModel = model.startsWith('gpt-image');
  const asBase64 = imageTokenModel || form.fields.get('response_format') === 'b64_json';
  const data = [];
  for (let index = 0; index < count; index++) {
    data.push(asBase64 ? { b64_json: mockPngBase64 } : { url: `${context.origin}${mockImagePath}` });
  }
  const result: Record<string, unknown> = { created: nowSeconds(), data };
  if (imageTokenModel && !scenario.noUsage) {
    const textTokens = countWords(form.fields.get('prompt') ?? '');
    const imageTokens = editImageTokensPerImage * files.length;
    const outputTokens = outputTokensPerImage * count;
    result.usage = {
      total_tokens: textTokens + imageTokens + outputTokens,
      input_tokens: textTokens + imageTokens,
      output_tokens: outputTokens,
      input_tokens_details: { text_tokens: textTokens, image_tokens: imageTokens },
    };
  }
  await sendResultJson(context.response, scenario, result);
}
