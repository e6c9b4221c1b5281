import { ErrorCode } from '@switchyard/shared';
import type { FastifyInstance } from 'fastify';
import { GatewayError } from '../errors/gateway-error.ts';
import type { RelayHandler, RelayLane } from './lane/relay-lane.ts';
import type { RelayRequest } from './lane/relay-request.ts';
import type { AuthenticatedCaller } from './stages/authenticate-token.ts';
import { resolveGroup } from './stages/resolve-group.ts';

/** Unix seconds shown as every model's creation time (the reference's constant). */
const MODEL_CREATED = 1626777600;

type Authenticate = (request: RelayRequest) => AuthenticatedCaller | Promise<AuthenticatedCaller>;

/**
 * Which list shape a `GET /v1/models` caller expects: Anthropic's whenever `anthropic-version` is
 * sent (Anthropic clients send it with `x-api-key` or a Bearer token), Gemini's with a Google key.
 */
function listFormatOf(request: RelayRequest): 'openai' | 'anthropic' | 'gemini' {
  const headers = request.headers;
  if (typeof headers['anthropic-version'] === 'string') return 'anthropic';
  if (typeof headers['x-goog-api-key'] === 'string' || typeof request.query.key === 'string') return 'gemini';
  return 'openai';
}

const openAIModel = (id: string) => ({ id, object: 'model', created: MODEL_CREATED, owned_by: 'switchyard' });

const openAIList = (models: string[]) => ({ object: 'list', success: true, data: models.map(openAIModel) });

const anthropicList = (models: string[]) => ({
  data: models.map((id) => ({
    type: 'model',
    id,
    display_name: id,
    created_at: new Date(MODEL_CREATED * 1000).toISOString(),
  })),
  has_more: false,
  first_id: models[0] ?? null,
  last_id: models.at(-1) ?? null,
});

const geminiList = (models: string[]) => ({
  models: models.map((id) => ({
    name: `models/${id}`,
    displayName: id,
    supportedGenerationMethods: ['generateContent', 'streamGenerateContent'],
  })),
});

/** The model list routes: OpenAI, Anthropic and Gemini shapes of the models a token may use. */
export function registerModelListRoutes(
  app: FastifyInstance,
  lane: RelayLane,
  authenticate: Authenticate,
): void {
  const { options, relay } = app.services;
  const modelsFor = async (request: RelayRequest) => {
    const { token, user } = await authenticate(request);
    if (token.model_limits_enabled) {
      return token.model_limits
        .split(',')
        .map((model) => model.trim())
        .filter(Boolean);
    }
    return relay.channelIndex.modelsOf([resolveGroup(options, user.group, token.group)]);
  };

  // Lists wait for no upstream: the lane stamps their added time like the console's answers.
  const get = (path: string, handler: RelayHandler) =>
    lane.route(['GET'], path, handler, { config: { relay: false } });
  get('/v1/models', async (request) => {
    const models = await modelsFor(request);
    const format = listFormatOf(request);
    if (format === 'anthropic') return anthropicList(models);
    if (format === 'gemini') return geminiList(models);
    return openAIList(models);
  });
  get('/v1beta/models', async (request) => geminiList(await modelsFor(request)));
  get('/v1beta/openai/models', async (request) => openAIList(await modelsFor(request)));

  get('/v1/models/:model', async (request) => {
    const model = request.params.model!;
    const known = (await modelsFor(request)).includes(model);
    if (!known) {
      throw new GatewayError(ErrorCode.ResourceNotFound, `The model '${model}' does not exist`, {
        status: 404,
        type: 'invalid_request_error',
        wireCode: 'model_not_found',
      });
    }
    return openAIModel(model);
  });
}
