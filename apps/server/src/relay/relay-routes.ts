import {
  openAIChatCodec,
  openAICompletionsCodec,
  openAIEmbeddingsCodec,
  openAIModerationsCodec,
  type ProtocolCodec,
} from '@switchyard/relay-kit';
import { ErrorCode } from '@switchyard/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requireSessionUser } from '../auth/guards.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import { parseCall, relayCall } from './relay-handler.ts';
import { authenticateToken } from './stages/authenticate-token.ts';
import { checkModelRateLimit } from './stages/model-rate-limit.ts';
import { resolveGroup } from './stages/resolve-group.ts';

/**
 * The relay routes, registered as one encapsulated plugin: its own JSON handling keeps the raw
 * body bytes (for byte-exact forwarding) under the relay body limit.
 */
export async function relayRoutes(app: FastifyInstance): Promise<void> {
  const { options, relay, tokens, config } = app.services;

  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: config.relayBodyLimit },
    (_request, body, done) => done(null, body),
  );

  const markStatus = (tokenId: number, status: number) => {
    tokens
      .markStatus(tokenId, status)
      .then(() => relay.tokenCache.invalidateToken(tokenId))
      .catch((error: unknown) => app.log.warn({ err: error }, 'could not persist token status'));
  };

  const viaToken = (codec: ProtocolCodec) => async (request: FastifyRequest, reply: FastifyReply) => {
    const { token, user, pinnedChannelId } = await authenticateToken(request, relay, markStatus);
    const release = await checkModelRateLimit(options, app.services.rateLimiter, user.id);
    reply.raw.once('close', () => release(reply.raw.statusCode < 400));
    const call = parseCall(codec, request);
    const group =
      pinnedChannelId !== null ? token.group || user.group : resolveGroup(options, user.group, token.group);
    return relayCall(request, reply, codec, { user, token, group, pinnedChannelId }, call, false);
  };

  const textRoute = { config: { relay: true } };
  app.post('/v1/chat/completions', textRoute, viaToken(openAIChatCodec));
  app.post('/v1/completions', textRoute, viaToken(openAICompletionsCodec));
  app.post('/v1/embeddings', textRoute, viaToken(openAIEmbeddingsCodec));
  app.post('/v1/engines/:model/embeddings', textRoute, viaToken(openAIEmbeddingsCodec));
  app.post('/v1/moderations', textRoute, viaToken(openAIModerationsCodec));

  app.get('/v1/models', async (request) => {
    const { token, user } = await authenticateToken(request, relay, markStatus);
    const group = resolveGroup(options, user.group, token.group);
    const models = token.model_limits_enabled
      ? token.model_limits
          .split(',')
          .map((model) => model.trim())
          .filter(Boolean)
      : relay.channelIndex.modelsOf([group]);
    return {
      object: 'list',
      success: true,
      data: models.map((id) => ({ id, object: 'model', created: 1626777600, owned_by: 'switchyard' })),
    };
  });

  app.get('/v1/models/:model', async (request) => {
    const { token, user } = await authenticateToken(request, relay, markStatus);
    const { model } = request.params as { model: string };
    const group = resolveGroup(options, user.group, token.group);
    const known = token.model_limits_enabled
      ? token.model_limits.split(',').some((entry) => entry.trim() === model)
      : relay.channelIndex.modelsOf([group]).includes(model);
    if (!known) {
      throw new GatewayError(ErrorCode.ResourceNotFound, `The model '${model}' does not exist`, {
        status: 404,
        type: 'invalid_request_error',
        wireCode: 'model_not_found',
      });
    }
    return { id: model, object: 'model', created: 1626777600, owned_by: 'switchyard' };
  });

  app.post('/pg/chat/completions', { onRequest: requireSessionUser }, async (request, reply) => {
    const user = await relay.tokenCache.user(request.user!.id);
    if (!user) throw new GatewayError(ErrorCode.AuthRequired, '用户不存在', { status: 401 });
    const parsed = parseCall(openAIChatCodec, request);
    const requested = typeof parsed.body.group === 'string' ? parsed.body.group : '';
    const group = resolveGroup(options, user.group, requested);
    // `group` is the playground's own field: upstream APIs reject unknown parameters.
    const { group: _playgroundGroup, ...body } = parsed.body;
    const call = 'group' in parsed.body ? { ...parsed, body, rawBody: undefined } : parsed;
    return relayCall(
      request,
      reply,
      openAIChatCodec,
      { user, token: null, group, pinnedChannelId: null },
      call,
      true,
    );
  });
}
