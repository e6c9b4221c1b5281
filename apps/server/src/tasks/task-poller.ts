import type { FastifyBaseLogger } from 'fastify';
import type { AppServices } from '../app-services.ts';
import type { MidjourneyChanges, MidjourneyRow } from '../db/repositories/midjourney-repository.ts';
import { FINISHED_PROGRESS } from '../db/repositories/midjourney-repository.ts';
import type { TaskChanges, TaskRow } from '../db/repositories/task-repository.ts';
import { midjourneySettingsOf } from './midjourney-submit.ts';
import { readUpstreamTasks, storedNotifyHook, toMidjourneyDto } from './midjourney-wire.ts';
import { readSunoFetchResponse, SUNO_PLATFORM } from './suno-wire.ts';
import { logTaskRefund } from './task-charge.ts';
import { midjourneyUpdateOf, sunoUpdateOf } from './task-progress.ts';
import { taskRuntimeOf } from './task-runtime.ts';

/** Unfinished tasks read per platform and round. */
const POLL_LIMIT = 500;
const FETCH_TIMEOUT_MS = 15_000;
const NOTIFY_TIMEOUT_MS = 5_000;

const groupByChannel = <T extends { channel_id: number }>(rows: T[]) => {
  const groups = new Map<number, T[]>();
  for (const row of rows) {
    const list = groups.get(Number(row.channel_id));
    if (list) list.push(row);
    else groups.set(Number(row.channel_id), [row]);
  }
  return groups;
};

/**
 * Keeps unfinished drawing and music tasks current: every round it asks each task's channel for
 * the tasks' states, stores the changes, and finishes failed tasks with a refund to the user and
 * the token. The refund is made in the same transaction as the conditional "finish" update, so
 * it happens once however many pollers (nodes, restarts) see the failure. With MjNotifyEnabled a
 * drawing task whose state changed is posted to the notify hook its submit gave.
 */
export class TaskPoller {
  private running: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly services: AppServices,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Runs one round (or joins the running one). */
  pollOnce(): Promise<void> {
    this.running ??= (async () => {
      await this.pollMidjourney().catch((error: unknown) =>
        this.log.warn({ err: error }, 'drawing task poll failed'),
      );
      await this.pollSuno().catch((error: unknown) =>
        this.log.warn({ err: error }, 'music task poll failed'),
      );
    })().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  start(intervalMs: number): void {
    this.timer = setInterval(() => void this.pollOnce(), intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Finishes a task row with its changes and refunds it when failed; returns whether this call did it. */
  private async finish(
    kind: 'midjourneys' | 'tasks',
    row: MidjourneyRow | TaskRow,
    changes: MidjourneyChanges & TaskChanges,
    failed: boolean,
    reason: string,
  ): Promise<boolean> {
    const runtime = taskRuntimeOf(this.services);
    const repository = kind === 'midjourneys' ? runtime.midjourneys : runtime.tasks;
    if (!failed) return repository.updateUnfinished(row.id, changes);
    const quota = Number(row.quota);
    const payer = { userId: Number(row.user_id), tokenId: Number(row.token_id) };
    const done = await this.services.relay.billing.refundTaskOnce(payer, quota, (trx) =>
      repository.updateUnfinished(row.id, changes, trx),
    );
    if (done && quota > 0) await logTaskRefund(this.services, { ...row, quota }, reason);
    return done;
  }

  private failAll(kind: 'midjourneys' | 'tasks', rows: Array<MidjourneyRow | TaskRow>, failReason: string) {
    const changes = { status: 'FAILURE', progress: FINISHED_PROGRESS, fail_reason: failReason };
    return Promise.all(
      rows.map((row) => {
        const id = 'mj_id' in row ? row.mj_id : row.task_id;
        const reason = kind === 'midjourneys' ? `构图失败 ${id}` : `异步任务执行失败 ${id}`;
        return this.finish(kind, row, changes, true, reason);
      }),
    );
  }

  private async pollMidjourney(): Promise<void> {
    const runtime = taskRuntimeOf(this.services);
    const rows = await runtime.midjourneys.listUnfinished(POLL_LIMIT);
    await this.failAll(
      'midjourneys',
      rows.filter((row) => row.mj_id === ''),
      '任务ID为空',
    );
    for (const [channelId, list] of groupByChannel(rows.filter((row) => row.mj_id !== ''))) {
      const channel = await this.services.channels.findById(channelId);
      if (!channel) {
        await this.failAll('midjourneys', list, `获取渠道信息失败，请联系管理员，渠道ID：${channelId}`);
        continue;
      }
      const base = (channel.base_url ?? '').replace(/\/+$/, '');
      const answer = await runtime.upstream
        .call(
          'POST',
          `${base}/mj/task/list-by-condition`,
          { 'mj-api-secret': channel.key },
          { ids: list.map((row) => row.mj_id) },
          FETCH_TIMEOUT_MS,
        )
        .catch((error: unknown) => {
          this.log.warn({ err: error, channel: channelId }, 'drawing task poll request failed');
          return undefined;
        });
      const items = answer && answer.status === 200 ? readUpstreamTasks(answer.text) : undefined;
      if (!items) {
        if (answer)
          this.log.warn({ channel: channelId, status: answer.status }, 'drawing task poll answer unreadable');
        continue;
      }
      const byId = new Map(items.map((item) => [item.id, item]));
      const now = Date.now();
      for (const row of list) {
        const item = byId.get(row.mj_id);
        if (!item) continue;
        const update = midjourneyUpdateOf(row, item, now);
        if (!update.changed) continue;
        const done = await this.finish(
          'midjourneys',
          row,
          update.changes,
          update.failed,
          `构图失败 ${row.mj_id}`,
        );
        if (done) this.notify({ ...row, ...update.changes } as MidjourneyRow);
      }
    }
  }

  /** Posts the task to its notify hook (MjNotifyEnabled); failures are only logged. */
  private notify(row: MidjourneyRow): void {
    if (!this.services.options.getBoolean('MjNotifyEnabled')) return;
    const hook = storedNotifyHook(row.properties);
    if (hook === '') return;
    const dto = toMidjourneyDto(row, midjourneySettingsOf(this.services));
    fetch(hook, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(dto),
      redirect: 'manual',
      signal: AbortSignal.timeout(NOTIFY_TIMEOUT_MS),
    })
      .then((response) => response.body?.cancel())
      .catch((error: unknown) =>
        this.log.info({ err: error, task: row.mj_id }, 'drawing task notification failed'),
      );
  }

  private async pollSuno(): Promise<void> {
    const runtime = taskRuntimeOf(this.services);
    const rows = await runtime.tasks.listUnfinished(SUNO_PLATFORM, POLL_LIMIT);
    await this.failAll(
      'tasks',
      rows.filter((row) => row.task_id === ''),
      '任务ID为空',
    );
    for (const [channelId, list] of groupByChannel(rows.filter((row) => row.task_id !== ''))) {
      const channel = await this.services.channels.findById(channelId);
      if (!channel) {
        await this.failAll('tasks', list, `获取渠道信息失败，请联系管理员，渠道ID：${channelId}`);
        continue;
      }
      const base = (channel.base_url ?? '').replace(/\/+$/, '');
      const answer = await runtime.upstream
        .call(
          'POST',
          `${base}/suno/fetch`,
          { authorization: `Bearer ${channel.key}` },
          { ids: list.map((row) => row.task_id) },
          FETCH_TIMEOUT_MS,
        )
        .catch((error: unknown) => {
          this.log.warn({ err: error, channel: channelId }, 'music task poll request failed');
          return undefined;
        });
      const items = answer && answer.status === 200 ? readSunoFetchResponse(answer.text) : undefined;
      if (!items) continue;
      const byId = new Map(items.map((item) => [item.taskId, item]));
      const now = Math.floor(Date.now() / 1000);
      for (const row of list) {
        const item = byId.get(row.task_id);
        if (!item) continue;
        const update = sunoUpdateOf(row, item, now);
        if (update.changed)
          await this.finish('tasks', row, update.changes, update.failed, `异步任务执行失败 ${row.task_id}`);
      }
    }
  }
}

const pollers = new WeakMap<object, TaskPoller>();

/** The task poller of an app (one per AppServices). Tests call `pollOnce()` on it. */
export function taskPollerOf(services: AppServices, log: FastifyBaseLogger): TaskPoller {
  let poller = pollers.get(services);
  if (!poller) {
    poller = new TaskPoller(services, log);
    pollers.set(services, poller);
  }
  return poller;
}

/**
 * Starts the task poller on the master node unless UPDATE_TASK=false (a round every
 * TASK_POLL_INTERVAL seconds, 15 by default as in the reference), and returns the function
 * that stops it (waiting for a running round) and closes the task upstream connections.
 */
export function startTaskPoller(
  services: AppServices,
  log: FastifyBaseLogger,
  { timers }: { timers: boolean },
) {
  const poller = taskPollerOf(services, log);
  const { enabled, intervalSeconds } = services.config.taskPolling;
  if (timers && enabled) poller.start(intervalSeconds * 1000);
  return async () => {
    await poller.stop();
    await taskRuntimeOf(services).upstream.close();
  };
}
