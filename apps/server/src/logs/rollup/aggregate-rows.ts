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
 * columns a grain does not keep set to 0 or ''.
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
        const bucket = Math.floor(Number(row.created_at) / span) * span;
        const type = Number(row.type);
        const u = userId ? Number(row.user_id) : 0;
        const name = username ? row.username : '';
        const token = tokenName ? row.token_name : '';
        const model = modelName ? row.model_name : '';
        const channel = channelId ? Number(row.channel_id) : 0;
        const g = group ? row.group : '';
        // NUL cannot occur in the text columns' values as written, so the key is unambiguous.
        const key = `${grain.id}\u0000${span}\u0000${bucket}\u0000${type}\u0000${u}\u0000${name}\u0000${token}\u0000${model}\u0000${channel}\u0000${g}`;
        const current = sums.get(key);
        if (current === undefined) {
          sums.set(key, {
            grain: grain.id,
            span,
            bucket,
            type,
            user_id: u,
            username: name,
            token_name: token,
            model_name: model,
            channel_id: channel,
            group: g,
            count: 1,
            quota: Number(row.quota),
            prompt_tokens: Number(row.prompt_tokens),
            completion_tokens: Number(row.completion_tokens),
          });
          continue;
        }
        current.count += 1;
        current.quota += Number(row.quota);
        current.prompt_tokens += Number(row.prompt_tokens);
        current.completion_tokens += Number(row.completion_tokens);
      }
    }
  }
  return [...sums.values()];
}
