import { anthropicModelIds } from '../mock-models.ts';
import type { MockRequestContext } from '../mock-request-context.ts';
import { sendJson } from '../response-writer.ts';

function describeModel(id: string): Record<string, unknown> {
  return { type: 'model', id, display_name: id, created_at: '2025-01-01T00:00:00Z' };
}

const modelListBody = JSON.stringify({
  data: anthropicModelIds.map(describeModel),
  has_more: false,
  first_id: anthropicModelIds[0],
  last_id: anthropicModelIds[anthropicModelIds.length - 1],
});

/** `GET /v1/models` with an `anthropic-version` header: Anthropic's model list. */
export function handleAnthropicModelList(context: MockRequestContext): void {
  sendJson(context.response, 200, modelListBody);
}

/** `GET /v1/models/{id}` with an `anthropic-version` header. */
export function handleAnthropicModel(context: MockRequestContext): void {
  sendJson(context.response, 200, describeModel(context.pathModel ?? ''));
}
