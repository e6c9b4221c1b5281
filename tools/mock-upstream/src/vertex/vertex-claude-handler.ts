import { handleAnthropicMessages } from '../anthropic/anthropic-messages-handler.ts';
import type { MockRequestContext } from '../mock-request-context.ts';
import { sendProtocolError } from '../protocol-errors.ts';

/** The `anthropic_version` Vertex AI requires in Claude bodies. */
export const vertexAnthropicVersion = 'vertex-2023-10-16';

/**
 * `POST /v1/projects/{project}/locations/{region}/publishers/anthropic/models/{model}:rawPredict`
 * (and `:streamRawPredict`): an Anthropic Messages body without `model` (the path names it) and
 * with `anthropic_version: "vertex-2023-10-16"`, answered as Anthropic answers `/v1/messages`
 * (`:streamRawPredict` always streams).
 */
export async function handleVertexClaude(context: MockRequestContext): Promise<void> {
  const { body, response } = context;
  if (body.anthropic_version !== vertexAnthropicVersion) {
    sendProtocolError(response, 'anthropic', {
      status: 400,
      message: `anthropic_version: must be "${vertexAnthropicVersion}"`,
    });
    return;
  }
  if ('model' in body) {
    sendProtocolError(response, 'anthropic', {
      status: 400,
      message: 'model: Extra inputs are not permitted',
    });
    return;
  }
  const stream = context.path.endsWith(':streamRawPredict');
  await handleAnthropicMessages({ ...context, body: { ...body, model: context.pathModel ?? '', stream } });
}
