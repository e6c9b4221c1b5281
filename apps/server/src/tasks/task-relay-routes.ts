import type { FastifyInstance } from 'fastify';
import type { RelayHandler, RelayLane } from '../relay/lane/relay-lane.ts';
import type { RelayReply } from '../relay/lane/relay-reply.ts';
import type { RelayRequest } from '../relay/lane/relay-request.ts';
import { authenticateToken } from '../relay/stages/authenticate-token.ts';
import { checkModelRateLimit } from '../relay/stages/model-rate-limit.ts';
import { resolveGroup } from '../relay/stages/resolve-group.ts';
import { SUBMIT_KINDS, type SubmitKind } from './midjourney-actions.ts';
import {
  fetchMidjourneyImageSeed,
  fetchMidjourneyTask,
  listMidjourneyTasks,
  streamMidjourneyImage,
} from './midjourney-fetch.ts';
import { submitMidjourney } from './midjourney-submit.ts';
import { fetchSunoTask, fetchSunoTasks, submitSuno } from './suno-relay.ts';
import type { TaskCaller } from './task-charge.ts';
import { answerTaskError, MidjourneyRelayError, MJ_REQUEST_ERROR, SunoRelayError } from './task-errors.ts';

type Family = 'mj' | 'suno';

/** Parses a JSON object body; anything else is refused in the family's error shape. */
function readObject(request: RelayRequest, family: Family): Record<string, unknown> {
  const raw = request.body;
  let value: unknown;
  try {
    value = Buffer.isBuffer(raw) && raw.length > 0 ? JSON.parse(raw.toString('utf8')) : undefined;
  } catch {
    value = undefined;
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value))
    return value as Record<string, unknown>;
  if (family === 'mj') throw new MidjourneyRelayError(MJ_REQUEST_ERROR, 'bind_request_body_failed');
  throw new SunoRelayError('invalid_request', 'invalid_request', 400);
}

/** A `/:mode/mj/...` prefix must look like a midjourney-proxy mode (`mj-fast`, `mj-relax`...). */
function checkMode(request: RelayRequest, reply: RelayReply): boolean {
  const { mode } = request.params;
  if (mode === undefined || /^mj-[a-z]{1,20}$/.test(mode)) return true;
  void reply
    .code(404)
    .send({ error: { message: 'Invalid URL', type: 'invalid_request_error', param: null, code: null } });
  return false;
}

/**
 * Asynchronous task relay: `/mj/*` (Midjourney proxy, channel types 2 and 5; also under a
 * `/mj-<mode>` prefix) and `/suno/*` (Suno, type 36), served by the relay lane like every relay
 * route (raw bodies under the relay body limit). Token authentication and channel rules are the
 * relay's; task state lives in the midjourneys and tasks tables, kept current by the task poller
 * (task-poller.ts).
 */
export function registerTaskRelayRoutes(app: FastifyInstance, lane: RelayLane): void {
  const { options, relay, tokens } = app.services;
  // Task answers wait for no streamed upstream: the lane stamps their added time on what they send.
  const route = (method: 'GET' | 'POST', path: string, handler: RelayHandler) =>
    lane.route([method], path, handler, { config: { relay: false }, ownErrors: answerTaskError });

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

  /** Token authentication, the model rate limit and the group, as for every relay call. */
  const callerOf = async (request: RelayRequest, reply: RelayReply) => {
    const { token, user, pinnedChannelId } = await authenticateToken(request, relay, markStatus);
    const release = await checkModelRateLimit(options, app.services.modelRateLimiter, user.id);
    reply.raw.once('close', () => release(reply.raw.statusCode < 400));
    const group =
      pinnedChannelId !== null ? token.group || user.group : resolveGroup(options, user.group, token.group);
    const caller: TaskCaller = {
      user,
      token,
      group,
      ip: request.ip,
      requestId: request.id,
      startedAt: performance.now(),
    };
    return { caller, pinnedChannelId };
  };
  const userOf = async (request: RelayRequest) =>
    (await authenticateToken(request, relay, markStatus)).user.id;

  const submit = (kind: SubmitKind) => async (request: RelayRequest, reply: RelayReply) => {
    if (!checkMode(request, reply)) return reply;
    const { caller, pinnedChannelId } = await callerOf(request, reply);
    return submitMidjourney(request, reply, kind, caller, pinnedChannelId, readObject(request, 'mj'));
  };
  for (const prefix of ['', '/:mode']) {
    for (const kind of SUBMIT_KINDS) route('POST', `${prefix}/mj/submit/${kind}`, submit(kind));
    route('POST', `${prefix}/mj/insight-face/swap`, submit('swap-face'));
    route('GET', `${prefix}/mj/task/:id/fetch`, async (request, reply) => {
      if (!checkMode(request, reply)) return reply;
      return fetchMidjourneyTask(request, await userOf(request));
    });
    route('GET', `${prefix}/mj/task/:id/image-seed`, async (request, reply) => {
      if (!checkMode(request, reply)) return reply;
      return fetchMidjourneyImageSeed(request, reply, await userOf(request));
    });
    route('POST', `${prefix}/mj/task/list-by-condition`, async (request, reply) => {
      if (!checkMode(request, reply)) return reply;
      const userId = await userOf(request);
      return listMidjourneyTasks(request, userId, readObject(request, 'mj'));
    });
    route('GET', `${prefix}/mj/image/:id`, async (request, reply) => {
      if (!checkMode(request, reply)) return reply;
      return streamMidjourneyImage(request, reply);
    });
  }

  route('POST', '/suno/submit/:action', async (request, reply) => {
    const { caller, pinnedChannelId } = await callerOf(request, reply);
    return submitSuno(request, reply, caller, pinnedChannelId, readObject(request, 'suno'));
  });
  route('POST', '/suno/fetch', async (request) => {
    const userId = await userOf(request);
    return fetchSunoTasks(request, userId, readObject(request, 'suno'));
  });
  route('GET', '/suno/fetch/:id', async (request) => fetchSunoTask(request, await userOf(request)));
}
