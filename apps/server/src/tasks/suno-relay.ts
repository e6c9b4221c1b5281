import type { AppServices } from '../app-services.ts';
import type { Reservation } from '../billing/ledger/billing-service.ts';
import { isGatewayError } from '../errors/gateway-error.ts';
import type { RelayReply } from '../relay/lane/relay-reply.ts';
import type { RelayRequest } from '../relay/lane/relay-request.ts';
import { checkModelLimit } from '../relay/stages/resolve-group.ts';
import { noChannelError } from '../relay/stages/run-attempts.ts';
import { readSunoSubmit, readSunoSubmitResponse, SUNO_PLATFORM, toSunoTaskDto } from './suno-wire.ts';
import { SUNO_CHANNEL_TYPE, type TaskChannel } from './task-channels.ts';
import { chargeTask, priceTask, reserveTaskQuota, type TaskCaller, unpricedMessage } from './task-charge.ts';
import { SunoRelayError } from './task-errors.ts';
import { taskRuntimeOf } from './task-runtime.ts';

const SUBMIT_TIMEOUT_MS = 60_000;
const SUNO_TYPES = [SUNO_CHANNEL_TYPE];
/** Most ids one `POST /suno/fetch` may ask for. */
const MAX_IDS = 1000;

type Attempt = { channel: TaskChannel; status: number; text: string } | { channel: TaskChannel; error: true };

/**
 * Sends the submit to a channel; when the call fails in a way another channel may not (network
 * error, 429, 5xx) and RetryTimes allows, the next channel is tried (never one already tried).
 * A continuation is pinned to its original task's channel and gets one attempt.
 */
async function sendSubmit(
  services: AppServices,
  caller: TaskCaller,
  model: string,
  path: string,
  body: Record<string, unknown>,
  pinned: TaskChannel | null,
): Promise<Attempt> {
  const runtime = taskRuntimeOf(services);
  const tried = new Set<number>();
  const attempts = pinned ? 1 : 1 + Math.max(0, services.options.getNumber('RetryTimes'));
  let last: Attempt | undefined;
  for (let attempt = 0; attempt < attempts; attempt++) {
    const channel =
      pinned ??
      (await runtime.channels.select(caller.group, model, SUNO_TYPES, tried, services.relay.random));
    if (!channel) break;
    tried.add(channel.id);
    try {
      const answer = await runtime.upstream.call(
        'POST',
        `${channel.baseUrl}${path}`,
        { authorization: `Bearer ${channel.key}` },
        body,
        SUBMIT_TIMEOUT_MS,
      );
      last = { channel, ...answer };
      if (answer.status !== 429 && answer.status < 500) return last;
    } catch {
      last = { channel, error: true };
    }
  }
  if (!last) throw noChannelError(caller.group, model);
  return last;
}

/**
 * `POST /suno/submit/{music|lyrics}`: validates, prices (`suno_music` / `suno_lyrics`), reserves,
 * forwards with the channel's Bearer key, stores the task and charges only an accepted submit.
 */
export async function submitSuno(
  request: RelayRequest,
  reply: RelayReply,
  caller: TaskCaller,
  pinnedChannelId: number | null,
  body: Record<string, unknown>,
): Promise<unknown> {
  const { services } = request.server;
  const runtime = taskRuntimeOf(services);
  const { action: actionParam } = request.params as { action: string };
  const submit = readSunoSubmit(actionParam, body);
  if ('error' in submit) throw new SunoRelayError('invalid_request', submit.error, 400);
  let pinned: TaskChannel | null = null;
  if (submit.originTaskId !== '') {
    const origin = await runtime.tasks.findByTaskId(caller.user.id, submit.originTaskId);
    if (!origin) throw new SunoRelayError('task_not_exist', 'task_not_exist', 400);
    pinned = (await runtime.channels.get(Number(origin.channel_id), SUNO_TYPES)) ?? null;
    if (!pinned) throw new SunoRelayError('channel_disabled', '该任务所属渠道已被禁用', 400);
  } else if (pinnedChannelId !== null) {
    pinned = (await runtime.channels.get(pinnedChannelId, SUNO_TYPES)) ?? null;
    if (!pinned) throw new SunoRelayError('channel_not_found', '指定的渠道不存在或已被禁用', 403);
  } else {
    checkModelLimit(caller.token.model_limits_enabled, caller.token.model_limits, submit.model);
  }
  const price = priceTask(services, caller, submit.model);
  if (!price) throw new SunoRelayError('model_price_error', unpricedMessage(caller, submit.model), 400);
  let reservation: Reservation;
  try {
    reservation = await reserveTaskQuota(services, caller, price.quota);
  } catch (error) {
    if (isGatewayError(error) && error.status === 403) {
      throw new SunoRelayError('quota_not_enough', 'user quota is not enough', 403);
    }
    throw error;
  }
  try {
    const attempt = await sendSubmit(
      services,
      caller,
      submit.model,
      `/suno/submit/${submit.action.toLowerCase()}`,
      submit.body,
      pinned,
    );
    if ('error' in attempt) throw new SunoRelayError('do_request_failed', 'do_request_failed', 500);
    const answer = readSunoSubmitResponse(attempt.text);
    if (!('taskId' in answer)) {
      throw new SunoRelayError(answer.code, answer.message, attempt.status >= 400 ? attempt.status : 500);
    }
    const now = Math.floor(Date.now() / 1000);
    await runtime.tasks.insert({
      created_at: now,
      updated_at: now,
      task_id: answer.taskId,
      platform: SUNO_PLATFORM,
      user_id: caller.user.id,
      channel_id: attempt.channel.id,
      token_id: caller.token.id,
      quota: price.quota,
      action: submit.action,
      status: 'SUBMITTED',
      fail_reason: '',
      submit_time: now,
      progress: '0%',
      properties: JSON.stringify({ input: typeof body.prompt === 'string' ? body.prompt : '' }),
      data: null,
    });
    await chargeTask(
      services,
      caller,
      reservation,
      price,
      attempt.channel.id,
      submit.action,
      answer.taskId,
      request.log,
    );
    return reply.code(200).send({ code: 'success', message: '', data: answer.taskId });
  } finally {
    await services.relay.billing.refund(reservation);
  }
}

/** `POST /suno/fetch {ids}`: the caller's tasks among the ids, from the database. */
export async function fetchSunoTasks(request: RelayRequest, userId: number, body: Record<string, unknown>) {
  const ids = body.ids;
  if (ids !== undefined && (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string'))) {
    throw new SunoRelayError('invalid_request', 'ids must be a list of task ids', 400);
  }
  const list = (ids ?? []) as string[];
  if (list.length > MAX_IDS) throw new SunoRelayError('invalid_request', `at most ${MAX_IDS} ids`, 400);
  const rows = await taskRuntimeOf(request.server.services).tasks.findManyByTaskIds(userId, list);
  return { code: 'success', message: '', data: rows.map(toSunoTaskDto) };
}

/** `GET /suno/fetch/{id}`: one of the caller's tasks. */
export async function fetchSunoTask(request: RelayRequest, userId: number) {
  const { id } = request.params as { id: string };
  const row = await taskRuntimeOf(request.server.services).tasks.findByTaskId(userId, id);
  if (!row) throw new SunoRelayError('task_not_exist', 'task_not_exist', 400);
  return { code: 'success', message: '', data: toSunoTaskDto(row) };
}
