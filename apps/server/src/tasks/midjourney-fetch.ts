import type { RelayReply } from '../relay/lane/relay-reply.ts';
import type { RelayRequest } from '../relay/lane/relay-request.ts';
import { midjourneySettingsOf } from './midjourney-submit.ts';
import { readSubmitResponse, toMidjourneyDto } from './midjourney-wire.ts';
import { MIDJOURNEY_CHANNEL_TYPES } from './task-channels.ts';
import { MidjourneyRelayError, MJ_REQUEST_ERROR, MJ_UNKNOWN_ERROR } from './task-errors.ts';
import { taskRuntimeOf } from './task-runtime.ts';

/** Most ids one `list-by-condition` call may ask for. */
const MAX_IDS = 1000;
const IMAGE_TIMEOUT_MS = 30_000;

/** `GET /mj/task/{id}/fetch`: the caller's task, from the database. */
export async function fetchMidjourneyTask(request: RelayRequest, userId: number) {
  const { services } = request.server;
  const { id } = request.params as { id: string };
  const row = await taskRuntimeOf(services).midjourneys.findByMjId(userId, id);
  if (!row) throw new MidjourneyRelayError(MJ_REQUEST_ERROR, 'task_no_found');
  return toMidjourneyDto(row, midjourneySettingsOf(services));
}

/** `POST /mj/task/list-by-condition {ids}`: the caller's tasks among the ids, from the database. */
export async function listMidjourneyTasks(
  request: RelayRequest,
  userId: number,
  body: Record<string, unknown>,
) {
  const { services } = request.server;
  const ids = body.ids;
  if (ids !== undefined && (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string'))) {
    throw new MidjourneyRelayError(MJ_REQUEST_ERROR, 'ids must be a list of task ids');
  }
  const list = (ids ?? []) as string[];
  if (list.length > MAX_IDS) throw new MidjourneyRelayError(MJ_REQUEST_ERROR, `at most ${MAX_IDS} ids`);
  const rows = await taskRuntimeOf(services).midjourneys.findManyByMjIds(userId, list);
  const settings = midjourneySettingsOf(services);
  return rows.map((row) => toMidjourneyDto(row, settings));
}

/** `GET /mj/task/{id}/image-seed`: forwarded to the task's channel (which must be enabled). */
export async function fetchMidjourneyImageSeed(request: RelayRequest, reply: RelayReply, userId: number) {
  const { services } = request.server;
  const runtime = taskRuntimeOf(services);
  const { id } = request.params as { id: string };
  const row = await runtime.midjourneys.findByMjId(userId, id);
  if (!row) throw new MidjourneyRelayError(MJ_REQUEST_ERROR, 'task_no_found');
  const channel = await runtime.channels.get(Number(row.channel_id), MIDJOURNEY_CHANNEL_TYPES);
  if (!channel) throw new MidjourneyRelayError(MJ_REQUEST_ERROR, '该任务所属渠道已被禁用');
  let answer: { status: number; text: string };
  try {
    answer = await runtime.upstream.call(
      'GET',
      `${channel.baseUrl}/mj/task/${encodeURIComponent(id)}/image-seed`,
      { 'mj-api-secret': channel.key },
      undefined,
      IMAGE_TIMEOUT_MS,
    );
  } catch {
    throw new MidjourneyRelayError(MJ_UNKNOWN_ERROR, 'do_request_failed');
  }
  const parsed = readSubmitResponse(answer.text);
  if (!parsed) throw new MidjourneyRelayError(MJ_UNKNOWN_ERROR, 'unmarshal_response_body_failed');
  return reply.code(answer.status).send(parsed.body);
}

/**
 * `GET /mj/image/{id}` (public, as in the reference): streams the stored image of a task. Only
 * http(s) image URLs are fetched, redirects are not followed, and upstream errors are summarised
 * without their body.
 */
export async function streamMidjourneyImage(request: RelayRequest, reply: RelayReply) {
  const { services } = request.server;
  const runtime = taskRuntimeOf(services);
  const { id } = request.params as { id: string };
  const row = await runtime.midjourneys.findAnyByMjId(id);
  const url = row?.image_url ?? '';
  if (!row || !/^https?:\/\//i.test(url)) return reply.code(400).send({ error: 'midjourney_task_not_found' });
  let upstream: Awaited<ReturnType<typeof runtime.upstream.stream>>;
  try {
    upstream = await runtime.upstream.stream(url, IMAGE_TIMEOUT_MS);
  } catch {
    return reply.code(500).send({ error: 'http_get_image_failed' });
  }
  if (upstream.statusCode !== 200) {
    upstream.body.destroy();
    return reply
      .code(upstream.statusCode >= 400 ? upstream.statusCode : 502)
      .send({ error: 'http_get_image_failed' });
  }
  const type = upstream.headers['content-type'];
  reply.header('content-type', typeof type === 'string' && type !== '' ? type : 'image/jpeg');
  return reply.send(upstream.body);
}
