import type { MidjourneyChanges, MidjourneyRow } from '../db/repositories/midjourney-repository.ts';
import { FINISHED_PROGRESS } from '../db/repositories/midjourney-repository.ts';
import type { TaskChanges, TaskRow } from '../db/repositories/task-repository.ts';
import { NOTIFY_HOOK_PROPERTY, type UpstreamMidjourneyTask } from './midjourney-wire.ts';
import type { UpstreamSunoTask } from './suno-wire.ts';

/**
 * How a poll changes a stored task (pure). A task that failed is finished (FAILURE, 100%) in the
 * same conditional update that refunds it, so the refund happens once.
 */
export interface TaskUpdate<C> {
  changes: C;
  /** Something differs from the stored row. */
  changed: boolean;
  /** The task failed: finish it and refund its quota. */
  failed: boolean;
}

/** A drawing task unfinished this long after submit is failed (reference: one hour). */
export const MIDJOURNEY_TIMEOUT_MS = 3_600_000;
export const MIDJOURNEY_TIMEOUT_REASON = '上游任务超时（超过1小时）';

function parseObject(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** The update a polled midjourney-proxy task makes to its row. */
export function midjourneyUpdateOf(
  row: MidjourneyRow,
  item: UpstreamMidjourneyTask,
  now: number,
): TaskUpdate<MidjourneyChanges> {
  let status = item.status || row.status;
  let progress = item.progress || row.progress;
  let failReason = item.failReason;
  if (status === 'SUCCESS') progress = FINISHED_PROGRESS;
  if (progress !== FINISHED_PROGRESS && now - Number(row.submit_time) > MIDJOURNEY_TIMEOUT_MS) {
    status = 'FAILURE';
    failReason = MIDJOURNEY_TIMEOUT_REASON;
  }
  const failed = status === 'FAILURE' || (progress !== FINISHED_PROGRESS && failReason !== '');
  if (failed) {
    status = 'FAILURE';
    progress = FINISHED_PROGRESS;
    if (failReason === '') failReason = '任务执行失败';
  }
  const stored = parseObject(row.properties);
  const properties = item.properties ? { ...item.properties } : { ...stored };
  if (typeof stored[NOTIFY_HOOK_PROPERTY] === 'string')
    properties[NOTIFY_HOOK_PROPERTY] = stored[NOTIFY_HOOK_PROPERTY];
  const changes: MidjourneyChanges = {
    code: 1,
    status,
    progress,
    fail_reason: failReason,
    prompt_en: item.promptEn || row.prompt_en,
    image_url: item.imageUrl || row.image_url,
    start_time: item.startTime || Number(row.start_time),
    finish_time: item.finishTime || (failed && Number(row.finish_time) === 0 ? now : Number(row.finish_time)),
    buttons: item.buttons ? JSON.stringify(item.buttons) : row.buttons,
    properties: JSON.stringify(properties),
  };
  const changed =
    changes.status !== row.status ||
    changes.progress !== row.progress ||
    changes.fail_reason !== (row.fail_reason ?? '') ||
    changes.prompt_en !== row.prompt_en ||
    changes.image_url !== row.image_url ||
    changes.start_time !== Number(row.start_time) ||
    changes.finish_time !== Number(row.finish_time) ||
    changes.buttons !== row.buttons ||
    changes.properties !== (row.properties ?? JSON.stringify({}));
  return { changes, changed, failed };
}

/** The update a polled Suno task makes to its row (times in seconds). */
export function sunoUpdateOf(
  row: TaskRow,
  item: UpstreamSunoTask,
  nowSeconds: number,
): TaskUpdate<TaskChanges> {
  let status = item.status || row.status;
  let progress = row.progress;
  let failReason = item.failReason || (row.fail_reason ?? '');
  const failed = item.failReason !== '' || status === 'FAILURE';
  if (failed) {
    status = 'FAILURE';
    progress = FINISHED_PROGRESS;
    if (failReason === '') failReason = '任务执行失败';
  } else if (status === 'SUCCESS') {
    progress = FINISHED_PROGRESS;
  } else if (item.progress !== '') {
    progress = item.progress;
  } else if (status === 'IN_PROGRESS' && (progress === '' || progress === '0%')) {
    progress = '50%';
  }
  const data = item.data === null || item.data === undefined ? row.data : JSON.stringify(item.data);
  const changes: TaskChanges = {
    status,
    progress,
    fail_reason: failReason,
    submit_time: item.submitTime || Number(row.submit_time),
    start_time: item.startTime || Number(row.start_time),
    finish_time:
      item.finishTime || (failed && Number(row.finish_time) === 0 ? nowSeconds : Number(row.finish_time)),
    data,
    updated_at: nowSeconds,
  };
  const changed =
    changes.status !== row.status ||
    changes.progress !== row.progress ||
    changes.fail_reason !== (row.fail_reason ?? '') ||
    changes.submit_time !== Number(row.submit_time) ||
    changes.start_time !== Number(row.start_time) ||
    changes.finish_time !== Number(row.finish_time) ||
    changes.data !== row.data;
  return { changes, changed, failed };
}
