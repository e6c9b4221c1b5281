import { readJsonColumn } from '../db/json-column.ts';
import type { TaskRow } from '../db/repositories/task-repository.ts';

/** Suno task-platform wire knowledge (pure): submit validation, upstream answers, the task DTO. */

export const SUNO_PLATFORM = 'suno';

const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const integer = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) ? Math.trunc(value) : 0;
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A validated submit: the action (MUSIC / LYRICS), its model, and the body to forward. */
export type SunoSubmit =
  | { action: 'MUSIC' | 'LYRICS'; model: string; body: Record<string, unknown>; originTaskId: string }
  | { error: string };

/**
 * Validates `POST /suno/submit/{music|lyrics}`: music gets `mv` = `chirp-v3-0` when missing,
 * lyrics need a prompt, `continue_clip_id` needs the `task_id` of the task it continues.
 */
export function readSunoSubmit(actionParam: string, body: Record<string, unknown>): SunoSubmit {
  const action = actionParam.toUpperCase();
  if (action !== 'MUSIC' && action !== 'LYRICS') return { error: 'invalid_action' };
  const forwarded = { ...body };
  if (action === 'MUSIC' && text(forwarded.mv) === '') forwarded.mv = 'chirp-v3-0';
  if (action === 'LYRICS' && text(forwarded.prompt) === '') return { error: 'prompt_empty' };
  const originTaskId = text(body.task_id);
  if (text(body.continue_clip_id) !== '' && originTaskId === '') return { error: 'task id is empty' };
  return {
    action,
    model: action === 'MUSIC' ? 'suno_music' : 'suno_lyrics',
    body: forwarded,
    originTaskId: text(body.continue_clip_id) !== '' ? originTaskId : '',
  };
}

/** The upstream submit answer `{code:"success", data:"<task id>"}`, or the failure it reports. */
export function readSunoSubmitResponse(
  bodyText: string,
): { taskId: string } | { code: string; message: string } {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return { code: 'unmarshal_response_body_failed', message: 'unmarshal_response_body_failed' };
  }
  if (!isRecord(body))
    return { code: 'unmarshal_response_body_failed', message: 'unmarshal_response_body_failed' };
  if (body.code === 'success' && text(body.data) !== '') return { taskId: text(body.data) };
  const code = text(body.code) || 'upstream_error';
  return { code, message: text(body.message) || code };
}

/** A task as the upstream reports it in `POST /suno/fetch`. */
export interface UpstreamSunoTask {
  taskId: string;
  status: string;
  failReason: string;
  submitTime: number;
  startTime: number;
  finishTime: number;
  progress: string;
  data: unknown;
}

/** Parses `{code:"success", data:[…]}`; undefined when the answer is not a success. */
export function readSunoFetchResponse(bodyText: string): UpstreamSunoTask[] | undefined {
  let body: unknown;
  try {
    body = JSON.parse(bodyText);
  } catch {
    return undefined;
  }
  if (!isRecord(body) || body.code !== 'success' || !Array.isArray(body.data)) return undefined;
  return body.data.filter(isRecord).map((task) => ({
    taskId: text(task.task_id),
    status: text(task.status),
    failReason: text(task.fail_reason),
    submitTime: integer(task.submit_time),
    startTime: integer(task.start_time),
    finishTime: integer(task.finish_time),
    progress: text(task.progress),
    data: task.data ?? null,
  }));
}

/** A task row as the relay's `TaskDto`. */
export function toSunoTaskDto(row: TaskRow) {
  return {
    task_id: row.task_id,
    action: row.action,
    status: row.status,
    fail_reason: row.fail_reason ?? '',
    submit_time: Number(row.submit_time),
    start_time: Number(row.start_time),
    finish_time: Number(row.finish_time),
    progress: row.progress,
    data: readJsonColumn(row.data),
  };
}
