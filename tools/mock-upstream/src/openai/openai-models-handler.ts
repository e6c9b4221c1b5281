import { modelCreatedSeconds, openAiModelIds } from '../mock-models.ts';
import type { MockRequestContext } from '../mock-request-context.ts';
import { sendJson } from '../response-writer.ts';

function describeModel(id: string): Record<string, unknown> {
  return { id, object: 'model', created: modelCreatedSeconds, owned_by: 'system' };
}

const modelListBody = JSON.stringify({ object: 'list', data: openAiModelIds.map(describeModel) });

/** `GET /v1/models`: OpenAI's model list (serialised once). */
export function handleOpenAiModelList(context: MockRequestContext): void {
  sendJson(context.response, 200, modelListBody);
}

/** `GET /v1/models/{id}`: any id is reported as existing. */
export function handleOpenAiModel(context: MockRequestContext): void {
  sendJson(context.response, 200, describeModel(context.pathModel ?? ''));
}
