import type { DatabaseHandle } from '../../src/db/database.ts';
import { type LogFilter, LogRepository, type NewLog } from '../../src/db/repositories/log-repository.ts';
import { DAY, HOUR } from '../../src/logs/rollup/rollup-grains.ts';

/** A small seeded generator (mulberry32), so a failing case repeats. */
export function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

/** A day-aligned start for generated rows. */
export const BASE = 1_760_000_000 - (1_760_000_000 % DAY);
/** Generated rows fall in [BASE, BASE + SPREAD). */
export const SPREAD = 4 * DAY;

const MODELS = ['gpt-4o', 'GPT-4o-mini', 'claude-3_5', 'gemini-pro', 'o1%x'];
const GROUPS = ['default', 'vip', ''];
const TYPES = [2, 2, 2, 2, 2, 1, 5];

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

/** Consume-like rows over 4 days: 4 users, 6 tokens, 5 models, 3 channels, 3 groups, 3 types. */
export function randomLogs(random: () => number, count: number): NewLog[] {
  const rows: NewLog[] = [];
  for (let i = 0; i < count; i++) {
    const user = 1 + Math.floor(random() * 4);
    rows.push({
      user_id: user,
      username: `user${user}`,
      token_name: `token${user}-${Math.floor(random() * 2)}`,
      model_name: pick(random, MODELS),
      channel_id: 1 + Math.floor(random() * 3),
      group: pick(random, GROUPS),
      type: pick(random, TYPES),
      created_at: BASE + Math.floor(random() * SPREAD),
      quota: Math.floor(random() * 1000),
      prompt_tokens: Math.floor(random() * 500),
      completion_tokens: Math.floor(random() * 300),
      content: '',
    });
  }
  return rows;
}

/** A random stat filter: a few of the columns, a range that often cuts buckets. */
export function randomFilter(random: () => number): LogFilter {
  const filter: LogFilter = {};
  const maybe = (p: number) => random() < p;
  if (maybe(0.3)) filter.type = pick(random, [1, 2, 5]);
  if (maybe(0.2)) filter.userId = 1 + Math.floor(random() * 4);
  if (maybe(0.15)) filter.username = `user${1 + Math.floor(random() * 4)}`;
  if (maybe(0.2)) filter.tokenName = `token${1 + Math.floor(random() * 4)}-${Math.floor(random() * 2)}`;
  if (maybe(0.3)) filter.modelName = pick(random, ['gpt', 'GPT-4O', '4o', '3_5', '%', 'x', 'nomatch']);
  if (maybe(0.2)) filter.channelId = 1 + Math.floor(random() * 3);
  if (maybe(0.2)) filter.group = pick(random, ['default', 'vip']);
  const at = () => {
    const t = BASE - DAY + Math.floor(random() * (SPREAD + 2 * DAY));
    return maybe(0.3) ? t - (t % HOUR) : t;
  };
  if (maybe(0.8)) filter.start = at();
  if (maybe(0.7)) filter.end = at();
  return filter;
}

/** Inserts rows in chunks (as the settlement writer does). */
export async function insertLogs(handle: DatabaseHandle, rows: NewLog[], chunk = 500): Promise<void> {
  const logs = new LogRepository(handle.db);
  for (let i = 0; i < rows.length; i += chunk) await logs.insertMany(rows.slice(i, i + chunk));
}
