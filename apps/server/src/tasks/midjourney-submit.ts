import type { AppServices } from '../app-services.ts';
import type { Reservation } from '../billing/ledger/billing-service.ts';
import { channelHealthOf } from '../channels/channel-health-service.ts';
import { FINISHED_PROGRESS } from '../db/repositories/midjourney-repository.ts';
import { isGatewayError } from '../errors/gateway-error.ts';
import type { RelayReply } from '../relay/lane/relay-reply.ts';
import type { RelayRequest } from '../relay/lane/relay-request.ts';
import { checkModelLimit } from '../relay/stages/resolve-group.ts';
import { noChannelError } from '../relay/stages/run-attempts.ts';
import {
  actionOfSubmit,
  isFollowUp,
  isFreeAction,
  MjAction,
  modelOfAction,
  type SubmitKind,
} from './midjourney-actions.ts';
import {
  buildUpstreamBody,
  isAcceptedCode,
  type MidjourneySettings,
  NOTIFY_HOOK_PROPERTY,
  notifyHookOf,
  readSubmitResponse,
  type SubmitResponse,
} from './midjourney-wire.ts';
import { MIDJOURNEY_CHANNEL_TYPES, type TaskChannel } from './task-channels.ts';
import { chargeTask, priceTask, reserveTaskQuota, type TaskCaller, unpricedMessage } from './task-charge.ts';
import { MidjourneyRelayError, MJ_REQUEST_ERROR, MJ_UNKNOWN_ERROR } from './task-errors.ts';
import { taskRuntimeOf } from './task-runtime.ts';

/** Seconds an upstream submit may take (the reference's 60 s). */
const SUBMIT_TIMEOUT_MS = 60_000;

const refuse = (description: string) => new MidjourneyRelayError(MJ_REQUEST_ERROR, description);

/** The Mj* options in force. */
export function midjourneySettingsOf(services: AppServices): MidjourneySettings {
  const { options } = services;
  return {
    accountFilter: options.getBoolean('MjAccountFilterEnabled'),
    notify: options.getBoolean('MjNotifyEnabled'),
    modeClear: options.getBoolean('MjModeClearEnabled'),
    forwardUrl: options.getBoolean('MjForwardUrlEnabled'),
    serverAddress: (options.get('ServerAddress') || 'http://localhost:3000').replace(/\/+$/, ''),
  };
}

/** The submit path sent upstream: the `/mj-fast`-style mode prefix stripped, the query dropped. */
export function upstreamPathOf(url: string): string {
  const path = url.split('?')[0] ?? url;
  const at = path.indexOf('/mj/');
  return at > 0 ? path.slice(at) : path;
}

/** The channel a submit goes to: the original task's for follow-ups, else one serving the model. */
async function channelFor(
  services: AppServices,
  caller: TaskCaller,
  model: string,
  pinnedChannelId: number | null,
  originChannelId: number | null,
): Promise<TaskChannel> {
  const { channels } = taskRuntimeOf(services);
  if (originChannelId !== null) {
    const channel = await channels.get(originChannelId, MIDJOURNEY_CHANNEL_TYPES);
    if (!channel) throw refuse('该任务所属渠道已被禁用');
    return channel;
  }
  if (pinnedChannelId !== null) {
    const channel = await channels.get(pinnedChannelId, MIDJOURNEY_CHANNEL_TYPES);
    if (!channel) throw refuse('指定的渠道不存在或已被禁用');
    return channel;
  }
  checkModelLimit(caller.token.model_limits_enabled, caller.token.model_limits, model);
  const channel = await channels.select(
    caller.group,
    model,
    MIDJOURNEY_CHANNEL_TYPES,
    new Set(),
    services.relay.random,
  );
  if (!channel) throw noChannelError(caller.group, model);
  return channel;
}

/** Sends the submit upstream; any failure to get a readable answer refunds and refuses. */
async function submitUpstream(
  services: AppServices,
  channel: TaskChannel,
  path: string,
  body: Record<string, unknown>,
): Promise<{ status: number; response: SubmitResponse }> {
  let reply: { status: number; text: string };
  try {
    reply = await taskRuntimeOf(services).upstream.call(
      'POST',
      `${channel.baseUrl}${path}`,
      { 'mj-api-secret': channel.key },
      body,
      SUBMIT_TIMEOUT_MS,
    );
  } catch {
    throw new MidjourneyRelayError(MJ_UNKNOWN_ERROR, 'do_request_failed');
  }
  const response = readSubmitResponse(reply.text);
  if (!response) {
    const description =
      reply.status >= 400 ? `bad_response_status_code ${reply.status}` : 'unmarshal_response_body_failed';
    throw new MidjourneyRelayError(MJ_UNKNOWN_ERROR, description);
  }
  return { status: reply.status, response };
}

/** Disables the channel after code 3 ("no available account instance") when auto-disable applies. */
function disableOnNoAccount(request: RelayRequest, channel: TaskChannel): void {
  const { services } = request.server;
  if (!channel.autoBan || !services.options.getBoolean('AutomaticDisableChannelEnabled')) return;
  channelHealthOf(services, request.log)
    .disable(channel, 'No available account instance')
    .catch((error: unknown) => request.log.warn({ err: error }, 'could not disable channel'));
}

/**
 * `POST /mj/submit/*` and `/mj/insight-face/swap` after token authentication: validates the
 * action, routes (follow-ups go to the original task's channel, which must be the caller's and,
 * with MjActionCheckSuccessEnabled, finished), reserves the fixed price, forwards, stores the
 * task, and charges only an accepted submit (HTTP 200, code 1/21/22); anything else is refunded.
 */
export async function submitMidjourney(
  request: RelayRequest,
  reply: RelayReply,
  kind: SubmitKind,
  caller: TaskCaller,
  pinnedChannelId: number | null,
  body: Record<string, unknown>,
): Promise<unknown> {
  const { services } = request.server;
  const runtime = taskRuntimeOf(services);
  const settings = midjourneySettingsOf(services);
  const parsed = actionOfSubmit(kind, body);
  if ('error' in parsed) throw refuse(parsed.error);
  let prompt = typeof body.prompt === 'string' ? body.prompt : '';
  let originChannelId: number | null = null;
  if (isFollowUp(kind)) {
    const origin = await runtime.midjourneys.findByMjId(caller.user.id, parsed.taskId);
    if (!origin) throw refuse('task_not_found');
    if (
      services.options.getBoolean('MjActionCheckSuccessEnabled') &&
      kind !== 'modal' &&
      origin.status !== 'SUCCESS'
    ) {
      throw refuse('task_status_not_success');
    }
    originChannelId = Number(origin.channel_id);
    prompt = origin.prompt ?? '';
  }
  if (kind === 'swap-face') prompt = 'InsightFace';
  const model = modelOfAction(parsed.action);
  const free = isFreeAction(parsed.action);
  const price = priceTask(services, caller, model);
  if (!price && !free) throw refuse(unpricedMessage(caller, model));
  const channel = await channelFor(services, caller, model, pinnedChannelId, originChannelId);
  const amount = free || !price ? 0 : price.quota;
  let reservation: Reservation;
  try {
    reservation = await reserveTaskQuota(services, caller, amount);
  } catch (error) {
    if (isGatewayError(error) && error.status === 403) throw refuse('quota_not_enough');
    throw error;
  }
  try {
    const upstreamBody = buildUpstreamBody(body, settings);
    const { status, response } = await submitUpstream(
      services,
      channel,
      upstreamPathOf(request.url),
      upstreamBody,
    );
    const accepted = status === 200 && isAcceptedCode(response.code);
    if (response.code === 3) disableOnNoAccount(request, channel);
    const now = Date.now();
    const properties: Record<string, unknown> = { ...response.properties };
    const hook = settings.notify ? notifyHookOf(body) : '';
    if (hook) properties[NOTIFY_HOOK_PROPERTY] = hook;
    const existingDone = response.code === 21 && response.properties.status === 'SUCCESS';
    const finished = !accepted || existingDone || parsed.action === MjAction.Upload;
    await runtime.midjourneys.insert({
      code: response.code,
      user_id: caller.user.id,
      action: parsed.action,
      mj_id: response.result,
      prompt,
      prompt_en: '',
      description: response.description,
      state: typeof body.state === 'string' ? body.state : '',
      submit_time: now,
      start_time: finished && accepted ? now : 0,
      finish_time: finished && accepted ? now : 0,
      image_url: existingDone ? String(response.properties.imageUrl ?? '') : (response.urls[0] ?? ''),
      status: !accepted ? 'FAILURE' : finished ? 'SUCCESS' : 'SUBMITTED',
      progress: finished ? FINISHED_PROGRESS : '0%',
      fail_reason: accepted ? '' : response.description,
      channel_id: channel.id,
      quota: accepted ? amount : 0,
      token_id: caller.token.id,
      properties: JSON.stringify(properties),
    });
    if (accepted && price && amount > 0) {
      await chargeTask(
        services,
        caller,
        reservation,
        price,
        channel.id,
        parsed.action,
        response.result,
        request.log,
      );
    } else {
      await services.relay.billing.refund(reservation);
    }
    const answer = { ...response.body };
    if (response.code === 22 || (response.code === 21 && !free)) answer.code = 1;
    return reply.code(status).send(answer);
  } catch (error) {
    await services.relay.billing.refund(reservation);
    throw error;
  }
}
