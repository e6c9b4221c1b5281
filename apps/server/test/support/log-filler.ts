import { LOG_COLUMNS, logValues } from '../../src/billing/settlement/log-values.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';
import type { NewLog } from '../../src/db/repositories/log-repository.ts';

/** The shape of a filled table: rows over days, spread over users, tokens, models, channels. */
export interface FillShape {
  rows: number;
  days: number;
  /** Unix seconds of the last second filled (the fill ends just before it). */
  end: number;
  users: number;
  tokens: number;
  models: number;
  channels: number;
}

export const TEN_MILLION: Omit<FillShape, 'end'> = {
  rows: 10_000_000,
  days: 90,
  users: 1000,
  tokens: 5000,
  models: 200,
  channels: 50,
};

const GROUPS = ['default', 'vip', 'svip'];

/** A small seeded generator (mulberry32). */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Fills `logs` with consume rows in time order (ids grow with time, as written), uniformly spread
 * (each token belongs to one user, 2% error rows), and `quota_data` with the same calls per
 * user-model-hour, as the dashboard recorder would have written them. For measuring queries only.
 */
export async function fillLogs(handle: DatabaseHandle, shape: FillShape, progress?: (done: number) => void) {
  const random = seeded(4343);
  const start = Math.floor((shape.end - shape.days * 86_400) / 3600) * 3600;
  const hours = shape.days * 24;
  const perHour = shape.rows / hours;
  let written = 0;
  for (let hour = 0; hour < hours; hour++) {
    const count = Math.round((hour + 1) * perHour) - written;
    const times: number[] = [];
    for (let i = 0; i < count; i++) times.push(start + hour * 3600 + Math.floor(random() * 3600));
    times.sort((a, b) => a - b);
    const rows: unknown[][] = [];
    const buckets = new Map<string, [number, string, string, number, number, number, number]>();
    for (const at of times) {
      const token = Math.floor(random() * shape.tokens);
      const user = 1 + (token % shape.users);
      const model = `model-${Math.floor(random() * shape.models)}`;
      const error = random() < 0.02;
      const prompt = Math.floor(random() * 2000);
      const completion = Math.floor(random() * 800);
      const quota = error ? 0 : prompt + completion * 2;
      const log: NewLog = {
        user_id: user,
        created_at: at,
        type: error ? 5 : 2,
        content: '',
        username: `user${user}`,
        token_name: `token${token}`,
        model_name: model,
        quota,
        prompt_tokens: prompt,
        completion_tokens: completion,
        use_time: 1,
        is_stream: 0,
        channel_id: 1 + Math.floor(random() * shape.channels),
        token_id: token + 1,
        group: GROUPS[user % GROUPS.length]!,
        ip: '',
        other: '{"request_id":"x"}',
      };
      rows.push(logValues(log, at));
      if (error) continue;
      const hourStart = at - (at % 3600);
      const key = `${user}|${model}|${hourStart}`;
      const bucket = buckets.get(key);
      if (bucket) {
        bucket[4] += 1;
        bucket[5] += quota;
        bucket[6] += prompt + completion;
      } else buckets.set(key, [user, `user${user}`, model, hourStart, 1, quota, prompt + completion]);
    }
    await insertRows(handle, 'logs', [...LOG_COLUMNS], rows);
    await insertRows(
      handle,
      'quota_data',
      ['user_id', 'username', 'model_name', 'created_at', 'count', 'quota', 'token_used'],
      [...buckets.values()],
    );
    written += count;
    progress?.(written);
  }
}

async function insertRows(handle: DatabaseHandle, table: string, columns: string[], rows: unknown[][]) {
  if (rows.length === 0) return;
  const quoted = columns.map((c) => (handle.kind === 'mysql' ? `\`${c}\`` : `"${c}"`)).join(', ');
  if (handle.kind === 'sqlite') {
    const sqlite = handle.sqlite!;
    const insert = sqlite.prepare(
      `INSERT INTO ${table} (${quoted}) VALUES (${columns.map(() => '?').join(', ')})`,
    );
    sqlite.transaction(() => {
      for (const row of rows) insert.run(...(row as never[]));
    })();
    return;
  }
  const chunk = Math.floor(30_000 / columns.length);
  for (let i = 0; i < rows.length; i += chunk) {
    const part = rows.slice(i, i + chunk);
    await handle.db
      .insertInto(table as never)
      .values(part.map((row) => Object.fromEntries(columns.map((c, k) => [c, row[k]]))) as never)
      .execute();
  }
}
