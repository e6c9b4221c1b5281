/**
 * Log rows of a filled table, generated in time order (ids ascend with created_at, as they do when
 * a gateway writes them), in column batches ready for a prepared statement or an `unnest` insert.
 * Also totals what the console's other tables must agree with: users' and tokens' used quota,
 * channels' used quota, and the dashboard's hourly quota_data buckets.
 */
import { LOG_COLUMNS } from '../../../apps/server/src/billing/settlement/log-values.ts';
import type { NewLog } from '../../../apps/server/src/db/repositories/log-repository.ts';
import { pick, seededRandom, type World } from './log-world.ts';

export const LogType = { Topup: 1, Consume: 2, Manage: 3, System: 4, Error: 5 } as const;

export { LOG_COLUMNS };

/** A column of the logs table's insert, in the server's order (LOG_COLUMNS). */
export type LogColumn = (typeof LOG_COLUMNS)[number];

/**
 * One batch, column by column (index i of every array is one row): an array per column of the
 * server's insert, typed from the logs table, so the fills' inserts follow the server's list.
 */
export type LogBatch = { length: number } & { [C in LogColumn]: Array<NonNullable<NewLog[C]>> };

/** One hourly dashboard bucket (quota_data). */
export interface QuotaBucket {
  userId: number;
  username: string;
  modelName: string;
  createdAt: number;
  count: number;
  quota: number;
  tokenUsed: number;
}

export interface LogTotals {
  userQuota: Map<number, number>;
  userRequests: Map<number, number>;
  tokenQuota: Map<number, number>;
  channelQuota: Map<number, number>;
  byType: Map<number, number>;
}

export interface RowPlan {
  rows: number;
  /** created_at of the first and last row (seconds). */
  from: number;
  to: number;
  seed?: number;
}

/** Share of each type among the rows: consume, then errors; the rest are top-ups, manage and system rows. */
const TYPE_TABLE: Array<[number, number]> = [
  [LogType.Consume, 0.965],
  [LogType.Error, 0.03],
  [LogType.Topup, 0.002],
  [LogType.Manage, 0.001],
  [LogType.System, 0.002],
];

export function typeOf(u: number): number {
  let edge = 0;
  for (const [type, share] of TYPE_TABLE) {
    edge += share;
    if (u < edge) return type;
  }
  return LogType.Consume;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

let cachedDay = -1;
let cachedDayText = '';
const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/** yyyyMMddHHmmss (UTC) of a time in seconds, as request ids begin (the date part cached per day). */
export function requestIdPrefix(seconds: number): string {
  const day = Math.floor(seconds / 86400);
  if (day !== cachedDay) {
    cachedDay = day;
    cachedDayText = new Date(day * 86400_000).toISOString().slice(0, 10).replace(/-/g, '');
  }
  const inDay = seconds - day * 86400;
  return `${cachedDayText}${two(Math.floor(inDay / 3600))}${two(Math.floor((inDay % 3600) / 60))}${two(inDay % 60)}`;
}

function emptyBatch(): LogBatch {
  const batch = { length: 0 } as LogBatch;
  for (const column of LOG_COLUMNS) (batch as unknown as Record<string, unknown[]>)[column] = [];
  return batch;
}

/**
 * Generates the rows in batches of `batchSize`, calling `onHour` with each completed hour's
 * quota_data buckets (consume rows only, as the dashboard counts them).
 */
export function* generateLogBatches(
  world: World,
  plan: RowPlan,
  batchSize: number,
  totals: LogTotals,
  onHour: (buckets: QuotaBucket[]) => void,
): Generator<LogBatch> {
  const random = seededRandom(plan.seed ?? 7);
  const span = plan.to - plan.from;
  let batch = emptyBatch();
  let hour = -1;
  let buckets = new Map<string, QuotaBucket>();
  let prefixSecond = -1;
  let prefix = '';
  const add = (map: Map<number, number>, key: number, value: number) =>
    map.set(key, (map.get(key) ?? 0) + value);
  for (let i = 0; i < plan.rows; i++) {
    const at = plan.rows === 1 ? plan.to : plan.from + Math.floor((i * span) / (plan.rows - 1));
    const userIndex = pick(world.userCumulative, random());
    const user = world.users[userIndex]!;
    const token = world.tokens[user.tokens[pick(user.tokenCumulative, random())]!]!;
    const model = world.models[token.models[pick(token.modelCumulative, random())]!]!;
    const channel = model.channels[Math.floor(random() * model.channels.length)]!;
    const type = typeOf(random());
    const relay = type === LogType.Consume || type === LogType.Error;
    const prompt = relay ? 50 + Math.floor(random() ** 2 * 8000) : 0;
    const completion = type === LogType.Consume ? 10 + Math.floor(random() ** 2 * 2000) : 0;
    const quota = type === LogType.Consume ? Math.round((prompt + completion * 3) * 0.75) + 1 : 0;
    if (at !== prefixSecond) {
      prefixSecond = at;
      prefix = requestIdPrefix(at);
    }
    let suffix = '';
    for (let k = 0; k < 8; k++) suffix += ALPHABET[Math.floor(random() * 62)];
    const requestId = `${prefix}${String(Math.floor(random() * 1e9)).padStart(9, '0')}${suffix}`;
    batch.user_id.push(user.id);
    batch.created_at.push(at);
    batch.type.push(type);
    batch.username.push(user.username);
    batch.token_name.push(relay ? token.name : '');
    batch.model_name.push(relay ? model.name : '');
    batch.quota.push(quota);
    batch.prompt_tokens.push(prompt);
    batch.completion_tokens.push(completion);
    batch.use_time.push(relay ? 1 + Math.floor(random() * 20) : 0);
    batch.is_stream.push(relay && random() < 0.6 ? 1 : 0);
    batch.channel_id.push(relay ? channel : 0);
    batch.token_id.push(relay ? token.id : 0);
    batch.group.push(relay ? user.group : '');
    batch.ip.push('');
    if (type === LogType.Consume) {
      batch.content.push('模型倍率 2.50，补全倍率 4.00，分组倍率 1.00');
      batch.other.push(
        `{"frt":-1000,"model_ratio":2.5,"group_ratio":1,"completion_ratio":4,"cache_tokens":0,"cache_ratio":1,` +
          `"cache_creation_tokens":0,"cache_creation_ratio":1,"group":"${user.group}","request_id":"${requestId}",` +
          `"reserved_quota":${quota},"usage_source":"upstream","admin_info":{"use_channel":["${channel}"]}}`,
      );
      add(totals.userQuota, user.id, quota);
      add(totals.userRequests, user.id, 1);
      add(totals.tokenQuota, token.id, quota);
      add(totals.channelQuota, channel, quota);
      const bucketHour = at - (at % 3600);
      if (bucketHour !== hour) {
        if (buckets.size > 0) onHour([...buckets.values()]);
        buckets = new Map();
        hour = bucketHour;
      }
      const key = `${user.id}|${model.name}`;
      const bucket = buckets.get(key);
      if (bucket) {
        bucket.count += 1;
        bucket.quota += quota;
        bucket.tokenUsed += prompt + completion;
      } else {
        buckets.set(key, {
          userId: user.id,
          username: user.username,
          modelName: model.name,
          createdAt: bucketHour,
          count: 1,
          quota,
          tokenUsed: prompt + completion,
        });
      }
    } else if (type === LogType.Error) {
      batch.content.push(
        `status_code=500, upstream error: bad_response_status_code (request id ${requestId})`,
      );
      batch.other.push(`{"error_type":"upstream_error","status_code":500,"request_id":"${requestId}"}`);
    } else {
      batch.content.push(type === LogType.Topup ? '通过兑换码充值 $10.000000 额度' : '管理员操作');
      batch.other.push('');
    }
    add(totals.byType, type, 1);
    batch.length += 1;
    if (batch.length === batchSize) {
      yield batch;
      batch = emptyBatch();
    }
  }
  if (buckets.size > 0) onHour([...buckets.values()]);
  if (batch.length > 0) yield batch;
}

export function emptyTotals(): LogTotals {
  return {
    userQuota: new Map(),
    userRequests: new Map(),
    tokenQuota: new Map(),
    channelQuota: new Map(),
    byType: new Map(),
  };
}
