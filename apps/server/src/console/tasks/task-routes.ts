import { queryInteger } from '@switchyard/shared';
import type { FastifyInstance } from 'fastify';
import { currentUser, requireAdmin, requireUser } from '../../auth/guards.ts';
import { readJsonColumn } from '../../db/json-column.ts';
import type { MidjourneyFilter, MidjourneyRow } from '../../db/repositories/midjourney-repository.ts';
import type { TaskFilter, TaskRow } from '../../db/repositories/task-repository.ts';
import { midjourneySettingsOf } from '../../tasks/midjourney-submit.ts';
import { publicProperties } from '../../tasks/midjourney-wire.ts';
import { taskRuntimeOf } from '../../tasks/task-runtime.ts';
import { ok, readPaging } from '../envelope.ts';
import { MidjourneyListQuery, TaskListQuery } from './task-list-query.ts';

/** Milliseconds from a bound sent in milliseconds or, when below 10^11, in seconds. */
const millisecondsOf = (value: number | string | undefined): number => {
  const number = queryInteger(value);
  return number > 0 && number < 100_000_000_000 ? number * 1000 : number;
};
const text = (value: string | undefined): string => value?.trim() ?? '';
/** Stored drawing properties as JSON text, without the notify hook; '' when there are none. */
const propertiesText = (stored: string | null): string => {
  const properties = publicProperties(stored);
  return properties === null ? '' : JSON.stringify(properties);
};

/**
 * Drawing (Midjourney) and async task (Suno) lists for admins (every row, channel filter) and
 * users (own rows). As in the reference, `data` is a bare array of one page, newest first, `p`
 * from 0: clients page by asking for the next page until one comes back short. A drawing row's
 * `buttons` and `properties` are JSON text, as the reference stores and sends them (`properties`
 * without the notify hook). With MjForwardUrlEnabled image URLs point at `/mj/image/<id>`.
 */
export async function taskRoutes(app: FastifyInstance): Promise<void> {
  const admin = { onRequest: requireAdmin };
  const user = { onRequest: requireUser };
  const runtime = () => taskRuntimeOf(app.services);

  const midjourneyView = (row: MidjourneyRow) => {
    const settings = midjourneySettingsOf(app.services);
    const imageUrl = row.image_url ?? '';
    return {
      id: Number(row.id),
      user_id: Number(row.user_id),
      code: Number(row.code),
      action: row.action,
      mj_id: row.mj_id,
      prompt: row.prompt ?? '',
      prompt_en: row.prompt_en ?? '',
      description: row.description ?? '',
      state: row.state ?? '',
      created_at: Math.floor(Number(row.submit_time) / 1000),
      submit_time: Number(row.submit_time),
      start_time: Number(row.start_time),
      finish_time: Number(row.finish_time),
      image_url:
        imageUrl !== '' && settings.forwardUrl ? `${settings.serverAddress}/mj/image/${row.mj_id}` : imageUrl,
      status: row.status,
      progress: row.progress,
      fail_reason: row.fail_reason ?? '',
      channel_id: Number(row.channel_id),
      quota: Number(row.quota),
      buttons: row.buttons ?? '',
      properties: propertiesText(row.properties),
    };
  };
  const taskView = (row: TaskRow) => ({
    id: Number(row.id),
    created_at: Number(row.created_at),
    updated_at: Number(row.updated_at),
    task_id: row.task_id,
    platform: row.platform,
    user_id: Number(row.user_id),
    channel_id: Number(row.channel_id),
    quota: Number(row.quota),
    action: row.action,
    status: row.status,
    fail_reason: row.fail_reason ?? '',
    submit_time: Number(row.submit_time),
    start_time: Number(row.start_time),
    finish_time: Number(row.finish_time),
    progress: row.progress,
    properties: readJsonColumn(row.properties),
    data: readJsonColumn(row.data),
  });

  const midjourneyFilterOf = (query: MidjourneyListQuery, userId: number | null): MidjourneyFilter => {
    const filter: MidjourneyFilter = {
      mjId: text(query.mj_id),
      startMs: millisecondsOf(query.start_timestamp),
      endMs: millisecondsOf(query.end_timestamp),
    };
    return userId !== null ? { ...filter, userId } : { ...filter, channelId: queryInteger(query.channel_id) };
  };
  const taskFilterOf = (query: TaskListQuery, userId: number | null): TaskFilter => {
    const filter: TaskFilter = {
      taskId: text(query.task_id),
      platform: text(query.platform),
      status: text(query.status),
      action: text(query.action),
      start: queryInteger(query.start_timestamp),
      end: queryInteger(query.end_timestamp),
    };
    return userId !== null ? { ...filter, userId } : { ...filter, channelId: queryInteger(query.channel_id) };
  };

  const listMidjourney = async (query: MidjourneyListQuery, userId: number | null) => {
    const { pageSize, offset } = readPaging(query, { base: 0 });
    const rows = await runtime().midjourneys.list(midjourneyFilterOf(query, userId), {
      offset,
      limit: pageSize,
    });
    return ok(rows.map(midjourneyView));
  };
  const listTasks = async (query: TaskListQuery, userId: number | null) => {
    const { pageSize, offset } = readPaging(query, { base: 0 });
    const rows = await runtime().tasks.list(taskFilterOf(query, userId), { offset, limit: pageSize });
    return ok(rows.map(taskView));
  };

  app.get('/mj/', { ...admin, schema: { querystring: MidjourneyListQuery } }, (request) =>
    listMidjourney(request.query as MidjourneyListQuery, null),
  );
  app.get('/mj/self', { ...user, schema: { querystring: MidjourneyListQuery } }, (request) =>
    listMidjourney(request.query as MidjourneyListQuery, currentUser(request).id),
  );
  app.get('/task/', { ...admin, schema: { querystring: TaskListQuery } }, (request) =>
    listTasks(request.query as TaskListQuery, null),
  );
  app.get('/task/self', { ...user, schema: { querystring: TaskListQuery } }, (request) =>
    listTasks(request.query as TaskListQuery, currentUser(request).id),
  );
}
