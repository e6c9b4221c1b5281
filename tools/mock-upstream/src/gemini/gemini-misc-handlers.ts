import { buildEmbeddingVector, readDimensions } from '../deterministic-vector.ts';
import { geminiModelIds } from '../mock-models.ts';
import type { MockRequestContext } from '../mock-request-context.ts';
import { sendProtocolError } from '../protocol-errors.ts';
import { isRecord } from '../reply-plan.ts';
import { sendJson } from '../response-writer.ts';
import { sendResultJson } from '../scenario-json-writer.ts';
import { readGeminiContent, summarizeGeminiContents } from './gemini-conversation.ts';

function describeModel(id: string): Record<string, unknown> {
  const embedding = id.includes('embedding');
  return {
    name: `models/${id}`,
    version: '001',
    displayName: id,
    description: 'Switchyard mock model',
    inputTokenLimit: embedding ? 2048 : 1_048_576,
    outputTokenLimit: embedding ? 1 : 65_536,
    supportedGenerationMethods: embedding ? ['embedContent'] : ['generateContent', 'countTokens'],
  };
}

const modelListBody = JSON.stringify({ models: geminiModelIds.map(describeModel) });

/** `GET /v1beta/models`. */
export function handleGeminiModelList(context: MockRequestContext): void {
  sendJson(context.response, 200, modelListBody);
}

/** `GET /v1beta/models/{model}`: any model is reported as existing. */
export function handleGeminiModel(context: MockRequestContext): void {
  sendJson(context.response, 200, describeModel(context.pathModel ?? ''));
}

function embed(model: string, request: Record<string, unknown>): { values: number[] } {
  const text = readGeminiContent(request.content).allText;
  return {
    values: Array.from(
      buildEmbeddingVector(`${model}\n${text}`, readDimensions(request.outputDimensionality)),
    ),
  };
}

/** `POST /v1beta/models/{model}:embedContent`: a deterministic vector (no usage, like Google's). */
export async function handleGeminiEmbedContent(context: MockRequestContext): Promise<void> {
  const { body, response, scenario } = context;
  if (!isRecord(body.content)) {
    sendProtocolError(response, 'gemini', {
      status: 400,
      message: '* EmbedContentRequest.content: content is not specified',
    });
    return;
  }
  await sendResultJson(response, scenario, { embedding: embed(context.pathModel ?? '', body) });
}

/** `POST /v1beta/models/{model}:batchEmbedContents`: one vector per request. */
export async function handleGeminiBatchEmbedContents(context: MockRequestContext): Promise<void> {
  const { body, response, scenario } = context;
  const requests = Array.isArray(body.requests) ? body.requests : [];
  const embeddings = requests.map((request) =>
    embed(context.pathModel ?? '', isRecord(request) ? request : {}),
  );
  await sendResultJson(response, scenario, { embeddings });
}

/** `POST /v1beta/models/{model}:countTokens`: the counted prompt tokens. */
export async function handleGeminiCountTokens(context: MockRequestContext): Promise<void> {
  const { body, response, scenario } = context;
  const request = isRecord(body.generateContentRequest) ? body.generateContentRequest : body;
  const totalTokens = summarizeGeminiContents(request).countedPromptTokens;
  await sendResultJson(response, scenario, {
    totalTokens,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: totalTokens }],
  });
}
