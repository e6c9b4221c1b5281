import { ROLLUP_GRAINS, type RollupDimension } from './rollup-grains.ts';

/** The logs columns the roll-up reads. */
export interface RollupSourceRow {
  id: number;
  created_at: number;
  type: number;
  user_id: number;
  username: string;
  token_name: string;
  model_name: string;
  channel_id: number;
  group: string;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
}

/** One log_rollups row's key and the sums to add to it. */
export interface RollupIncrement {
  grain: number;
  span: number;
  bucket: number;
  type: number;
  user_id: number;
  username: string;
  token_name: string;
  model_name: string;
  channel_id: number;
  group: string;
  count: number;
  quota: number;
  prompt_tokens: number;
  completion_tokens: number;
}

const keep = (dimensions: readonly RollupDimension[], column: RollupDimension) => dimensions.includes(column);

/**
 * Sums rows into the increments of every grain and span: one increment per distinct key, the
 * columns a grain does not keep set to 0 or ''. Increments come out sorted by key, so concurrent
 * upserts would lock rows in the same order.
 */
export function aggregateRows(rows: readonly RollupSourceRow[]): RollupIncrement[] {
  const sums = new Map<string, RollupIncrement>();
  for (const grain of ROLLUP_GRAINS) {
    const d = grain.dimensions;
    const userId = keep(d, 'user_id');
    const username = keep(d, 'username');
    const tokenName = keep(d, 'token_name');
    const modelName = keep(d, 'model_name');
    const channelId = keep(d, 'channel_id');
    const group = keep(d, 'group');
    for (const span of grain.spans) {
      for (const row of rows) {
        const createdAt = Number(row.created_at);
        const increment: RollupIncrement = {
          grain: grain.id,
          span,
          bucket: Math.floor(createdAt / span) * span,
          type: Number(row.type),
          user_id: userId ? Number(row.user_id) : 0,
          username: username ? row.username : '',
          token_name: tokenName ? row.token_name : '',
          model_name: modelName ? row.model_name : '',
          channel_id: channelId ? Number(row.channel_id) : 0,
          group: group ? row.group : '',
          count: 1,
          quota: Number(row.quota),
          prompt_tokens: Number(row.prompt_tokens),
          completion_tokens: Number(row.completion_tokens),
        };
        const key = keyOf(increment);
        const current = sums.get(key);
        if (current === undefined) {
          sums.set(key, increment);
          continue;
        }
        current.count += 1;
        current.quota += increment.quota;
        current.prompt_tokens += increment.prompt_tokens;
        current.completion_tokens += increment.completion_tokens;
      }
    }
  }
  return [...sums.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, value]) => value);
}

/** The primary key of log_rollups as one string (numbers padded so string order is key order). */
function keyOf(i: RollupIncrement): string {
  const pad = (n: number) => String(n).padStart(16, '0');
  return [
    pad(i.grain),
    pad(i.span),
    pad(i.user_id),
    pad(i.bucket),
    pad(i.type),
    i.username,
    i.token_name,
    i.model_name,
    pad(i.channel_id),
    i.group,
  ].join('\u0000');
}
