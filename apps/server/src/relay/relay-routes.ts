import {
  anthropicMessagesCodec,
  GEMINI_EMBEDDING_METHODS,
  geminiCodec,
  geminiEmbeddingsCodec,
  openAIChatCodec,
  openAICompletionsCodec,
  openAIEmbeddingsCodec,
  openAIModerationsCodec,
  type ProtocolCodec,
  parseAnthropicMessagesRequest,
  parseGeminiCountTokensRequest,
  type RelayCall,
} from '@switchyard/relay-kit';
import { ErrorCode } from '@switchyard/shared';
import type { FastifyInstance } from 'fastify';
import { requireSessionUser } from '../auth/guards.ts';
import { GatewayError, relayRefusal } from '../errors/gateway-error.ts';
import { countTokens } from './count-tokens.ts';
import type { RelayHandler, RelayLane } from './lane/relay-lane.ts';
import type { RelayReply } from './lane/relay-reply.ts';
import type { RelayRequest } from './lane/relay-request.ts';
import { ALL_METHODS } from './lane/relay-router.ts';
import { registerModelListRoutes } from './model-list-routes.ts';
import { CLIENT_CODECS } from './protocols/client-codecs.ts';
import type { RelayCaller } from './relay-context.ts';
import { parseCall, relayCall } from './relay-handler.ts';
import { type AuthenticatedCaller, authenticateToken } from './stages/authenticate-token.ts';
import {
  checkModelRateLimit,
  NO_RATE_LIMIT_RELEASE,
  type RateLimitRelease,
} from './stages/model-rate-limit.ts';
import { resolveGroup } from './stages/resolve-group.ts';

/** What a token's call runs once admitted: key checked, rate limit taken, body parsed, group chosen. */
export type AdmittedCall = (
  request: RelayRequest,
  reply: RelayReply,
  caller: RelayCaller,
  call: RelayCall,
) => Promise<unknown>;

type CallParser = Pick<ProtocolCodec, 'parseRequest'>;

/** OpenAI endpoints the reference answers with 501 (files, fine-tunes, model deletion...). */
const NOT_IMPLEMENTED = [
  '/v1/files',
  '/v1/files/*',
  '/v1/fine-tunes',
  '/v1/fine-tunes/*',
  '/v1/images/variations',
];

/**
 * The relay routes, all served by the relay lane (ADR-44): OpenAI, Anthropic and Gemini calls,
 * token counts, model lists, the playground and the endpoints answered "not implemented". The
 * lane keeps each body's raw bytes (for byte-exact forwarding, JSON and multipart alike) under
 * the relay body limit.
 */
export function registerRelayRoutes(app: FastifyInstance, lane: RelayLane): void {
  const { options, relay, tokens } = app.services;

  const markStatus = (tokenId: number, status: number) => {
    tokens
      .markStatus(tokenId, status)
      .then(() => {
        // Every node drops its cached copy (this one at once, the others through the change bus).
        relay.tokenCache.invalidateToken(tokenId);
        app.services.bus.publish('tokens', String(tokenId));
      })
      .catch((error: unknown) => app.log.warn({ err: error }, 'could not persist token status'));
  };
  const authenticate = (request: RelayRequest) => authenticateToken(request, relay, markStatus);

  /** After authentication: the per-model rate limit (a promise only when it is on), then `run`. */
  const admit = (
    parser: CallParser,
    run: AdmittedCall,
    request: RelayRequest,
    reply: RelayReply,
    caller: AuthenticatedCaller,
  ): Promise<unknown> => {
    const limit = checkModelRateLimit(options, app.services.modelRateLimiter, caller.user.id);
    return limit instanceof Promise
      ? limit.then((release) => runLimited(parser, run, request, reply, caller, release))
      : runLimited(parser, run, request, reply, caller, limit);
  };
  const runLimited = (
    parser: CallParser,
    run: AdmittedCall,
    request: RelayRequest,
    reply: RelayReply,
    { token, user, pinnedChannelId }: AuthenticatedCaller,
    release: RateLimitRelease,
  ): Promise<unknown> => {
    // No listener (and no closure) per request when no success limit applies.
    if (release !== NO_RATE_LIMIT_RELEASE) reply.raw.once('close', () => release(reply.raw.statusCode < 400));
    const call = parseCall(parser, request);
    const group =
      pinnedChannelId !== null ? token.group || user.group : resolveGroup(options, user.group, token.group);
    return run(request, reply, { user, token, group, pinnedChannelId }, call);
  };
  // Not async functions: on the hot path (key and user cached, no per-model rate limit) nothing is
  // awaited before relayCall, whose promise is handed on as it is; a fault before it becomes a
  // rejection, as in an async function.
  const viaToken =
    (parser: CallParser, run: AdmittedCall) =>
    (request: RelayRequest, reply: RelayReply): Promise<unknown> => {
      try {
        const authenticated = authenticate(request);
        return authenticated instanceof Promise
          ? authenticated.then((caller) => admit(parser, run, request, reply, caller))
          : admit(parser, run, request, reply, authenticated);
      } catch (error) {
        return Promise.reject(error);
      }
    };
  const relayVia = (codec: ProtocolCodec) =>
    viaToken(codec, (request, reply, caller, call) => relayCall(request, reply, codec, caller, call, false));
  // Codecs of protocols with their own error shape write every error of their routes.
  const post = (path: string, codec: ProtocolCodec, handler: RelayHandler = relayVia(codec)) => {
    const config = { relay: true, codec: codec.protocol.startsWith('openai') ? undefined : codec };
    lane.route(['POST'], path, handler, { config });
  };

  // Token counts: answered, never billed (count-tokens.ts).
  const countVia = (parseRequest: CallParser['parseRequest'], format: (tokens: number) => string) =>
    viaToken({ parseRequest }, countTokens(relay, format));
  post(
    '/v1/messages/count_tokens',
    anthropicMessagesCodec,
    countVia(parseAnthropicMessagesRequest, (tokens) => `{"input_tokens":${tokens}}`),
  );
  // Gemini model paths carry their method: generation, embeddings or a token count.
  const geminiGenerate = relayVia(geminiCodec);
  const geminiEmbed = relayVia(geminiEmbeddingsCodec);
  const geminiCount = countVia(parseGeminiCountTokensRequest, (tokens) => `{"totalTokens":${tokens}}`);
  const viaGeminiMethod = (request: RelayRequest, reply: RelayReply): Promise<unknown> => {
    const path = request.url.split('?', 1)[0]!;
    const method = path.slice(path.lastIndexOf(':') + 1);
    if (method === 'countTokens') return geminiCount(request, reply);
    return GEMINI_EMBEDDING_METHODS.has(method)
      ? geminiEmbed(request, reply)
      : geminiGenerate(request, reply);
  };

  post('/v1/chat/completions', openAIChatCodec);
  post('/v1/completions', openAICompletionsCodec);
  post('/v1/embeddings', openAIEmbeddingsCodec);
  post('/v1/engines/:model/embeddings', openAIEmbeddingsCodec);
  post('/v1/moderations', openAIModerationsCodec);
  for (const [path, codec] of CLIENT_CODECS) {
    post(path, codec, codec === geminiCodec ? viaGeminiMethod : relayVia(codec));
  }

  registerModelListRoutes(app, lane, authenticate);

  const notImplemented = async (request: RelayRequest): Promise<unknown> => {
    // As in the reference, the token is checked first.
    await authenticate(request);
    throw relayRefusal(ErrorCode.NotImplemented, 'API not implemented', 501, 'api_not_implemented');
  };
  for (const path of NOT_IMPLEMENTED) {
    lane.route(ALL_METHODS, path, notImplemented, { config: { relay: false } });
  }

  // The playground: the console's session (not a token) pays for the call.
  const playground = async (request: RelayRequest, reply: RelayReply): Promise<unknown> => {
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
  };
  lane.route(['POST'], '/pg/chat/completions', playground, {
    config: { relay: true },
    guard: requireSessionUser,
  });
}
