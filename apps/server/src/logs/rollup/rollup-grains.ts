import type { LogFilter } from '../../db/repositories/log-repository.ts';

export const HOUR = 3600;
export const DAY = 86_400;

/** The logs columns a stat filter can name, besides type and time (which every grain keeps). */
export type RollupDimension = 'user_id' | 'username' | 'token_name' | 'model_name' | 'channel_id' | 'group';

export const ALL_DIMENSIONS: readonly RollupDimension[] = [
  'user_id',
  'username',
  'token_name',
  'model_name',
  'channel_id',
  'group',
];

/** The grain that keeps every column (by day): any other grain's day buckets are sums of its. */
export const FULL_GRAIN_ID = 6;

/** log_rollups' key, in its primary key's order: the grain, bucket and type with every dimension. */
export const ROLLUP_KEY_COLUMNS = [
  'grain',
  'span',
  'user_id',
  'bucket',
  'type',
  'username',
  'token_name',
  'model_name',
  'channel_id',
  'group',
] as const;

/** The sums each log_rollups row holds; a batch adds its increments to them. */
export const ROLLUP_SUM_COLUMNS = ['count', 'quota', 'prompt_tokens', 'completion_tokens'] as const;

/** One way of summing consume rows: the columns kept, and the bucket lengths kept for it. */
export interface RollupGrain {
  id: number;
  dimensions: readonly RollupDimension[];
  /** Bucket lengths in seconds, longest first; each divides the one before it. */
  spans: readonly number[];
}

/**
 * The grains, smallest first (ids are stored, so a grain keeps its id wherever it stands); a stat
 * query reads the first one that keeps every column its filter names. Every grain a console filter
 * on its own reaches keeps hours as well as days, so a query reads raw rows only for the partial
 * hours at its ends: per type, per model, per channel, per group, and those three together (a few
 * hundred rows an hour at any traffic); per token name (serves the admin's token-name filter, one
 * row a bucket for a name every user has); per user with the model (serves a user's own stat and
 * the admin's username filter, with or without a model: a heavy user's day of raw rows is tens of
 * thousands). The per-token grain (a user or username with a token name) and the full grain (any
 * other combination) grow with the number of tokens and of distinct calls, so they keep days only:
 * their queries name a user or token, whose raw rows an index finds.
 */
export const ROLLUP_GRAINS: readonly RollupGrain[] = [
  { id: 1, dimensions: [], spans: [DAY, HOUR] },
  { id: 2, dimensions: ['model_name'], spans: [DAY, HOUR] },
  { id: 3, dimensions: ['channel_id'], spans: [DAY, HOUR] },
  { id: 4, dimensions: ['group'], spans: [DAY, HOUR] },
  // Two or three of model, channel and group together (no user or token): a few hundred
  // combinations an hour, where the full grain would hold about one row per call.
  { id: 7, dimensions: ['model_name', 'channel_id', 'group'], spans: [DAY, HOUR] },
  { id: 9, dimensions: ['token_name'], spans: [DAY, HOUR] },
  { id: 8, dimensions: ['user_id', 'username', 'model_name'], spans: [DAY, HOUR] },
  { id: 5, dimensions: ['user_id', 'username', 'token_name'], spans: [DAY] },
  { id: FULL_GRAIN_ID, dimensions: [...ALL_DIMENSIONS], spans: [DAY] },
];

/** The columns a filter names (besides type and time); null when no grain can answer it. */
export function dimensionsOf(filter: LogFilter): RollupDimension[] | null {
  if (filter.tokenId) return null;
  const named: RollupDimension[] = [];
  if (filter.userId) named.push('user_id');
  if (filter.username) named.push('username');
  if (filter.tokenName) named.push('token_name');
  if (filter.modelName) named.push('model_name');
  if (filter.channelId) named.push('channel_id');
  if (filter.group) named.push('group');
  return named;
}

/** The smallest grain that keeps every column the filter names, or null (read raw rows). */
export function grainFor(filter: LogFilter): RollupGrain | null {
  const named = dimensionsOf(filter);
  if (named === null) return null;
  return ROLLUP_GRAINS.find((grain) => named.every((column) => grain.dimensions.includes(column))) ?? null;
}
