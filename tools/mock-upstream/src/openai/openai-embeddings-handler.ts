import { buildEmbeddingVector, encodeVectorAsBase64, readDimensions } from '../deterministic-vector.ts';
import type { MockRequestContext } from '../mock-request-context.ts';
import { sendProtocolError } from '../protocol-errors.ts';
import { sendResultJson } from '../scenario-json-writer.ts';
import { countWords } from '../word-count.ts';
import { buildOpenAiPlainUsage } from './openai-usage.ts';

/**
 * `POST /v1/embeddings`: one deterministic vector per input (a string, strings, a token array
 * or token arrays). `prompt_tokens` is the words of every string input plus the length of every
 * token array. Honours `dimensions` and `encoding_format: "base64"` (the openai SDK's default).
 */
export async function handleOpenAiEmbeddings(context: MockRequestContext): Promise<void> {
  const { body, response, scenario } = context;
  if (typeof body.model !== 'string' || body.model === '') {
    sendProtocolError(response, 'openai', { status: 400, message: 'you must provide a model parameter' });
    return;
  }
  const input = body.input;
  const inputs: unknown[] =
    Array.isArray(input) && input.length > 0 && typeof input[0] !== 'number' ? input : [input];
  if (input === undefined || input === '' || (Array.isArray(input) && input.length === 0)) {
    sendProtocolError(response, 'openai', {
      status: 400,
      message:
        "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.",
    });
    return;
  }
  const dimensions = readDimensions(body.dimensions);
  const base64 = body.encoding_format === 'base64';
  let promptTokens = 0;
  const data = inputs.map((item, index) => {
    const text = typeof item === 'string' ? item : JSON.stringify(item);
    promptTokens += typeof item === 'string' ? countWords(item) : Array.isArray(item) ? item.length : 0;
    const vector = buildEmbeddingVector(`${body.model}\n${text}`, dimensions);
    return {
      object: 'embedding',
      index,
      embedding: base64 ? encodeVectorAsBase64(vector) : Array.from(vector),
    };
  });
  const result: Record<string, unknown> = { object: 'list', data, model: body.model };
  if (!scenario.noUsage) {
    const usage = buildOpenAiPlainUsage(promptTokens, 0);
    result.usage = { prompt_tokens: usage.prompt_tokens, total_tokens: usage.total_tokens };
  }
  await sendResultJson(response, scenario, result);
}
