import type { Generated } from 'kysely';

/**
 * Kysely table types. Flags are stored as integers 0/1 on every database so the same migrations
 * and queries run on SQLite, PostgreSQL and MySQL; repositories convert them to booleans.
 * Timestamps are Unix seconds except the Midjourney times (milliseconds).
 */
export interface UserTable {
  id: Generated<number>;
  username: string;
  password: Generated<string>;
  display_name: Generated<string>;
  role: Generated<number>;
  status: Generated<number>;
  email: Generated<string>;
  github_id: Generated<string>;
  wechat_id: Generated<string>;
  telegram_id: Generated<string>;
  linux_do_id: Generated<string>;
  oidc_id: Generated<string>;
  access_token: string | null;
  quota: Generated<number>;
  used_quota: Generated<number>;
  request_count: Generated<number>;
  group: Generated<string>;
  aff_code: string | null;
  aff_count: Generated<number>;
  aff_quota: Generated<number>;
  aff_history: Generated<number>;
  inviter_id: Generated<number>;
  setting: string | null;
  created_time: Generated<number>;
  /** Unix seconds, or a datetime in tables adopted from new-api (soft-delete.ts). */
  deleted_at: number | string | null;
}

export interface TokenTable {
  id: Generated<number>;
  user_id: number;
  key: string;
  status: Generated<number>;
  name: Generated<string>;
  created_time: Generated<number>;
  accessed_time: Generated<number>;
  expired_time: Generated<number>;
  remain_quota: Generated<number>;
  unlimited_quota: Generated<number>;
  model_limits_enabled: Generated<number>;
  model_limits: Generated<string>;
  allow_ips: string | null;
  used_quota: Generated<number>;
  group: Generated<string>;
  /** Unix seconds, or a datetime in tables adopted from new-api (soft-delete.ts). */
  deleted_at: number | string | null;
}

export interface ChannelTable {
  id: Generated<number>;
  type: Generated<number>;
  key: string;
  openai_organization: string | null;
  test_model: string | null;
  status: Generated<number>;
  name: Generated<string>;
  weight: Generated<number>;
  created_time: Generated<number>;
  test_time: Generated<number>;
  response_time: Generated<number>;
  base_url: Generated<string>;
  other: string | null;
  balance: Generated<number>;
  balance_updated_time: Generated<number>;
  models: string | null;
  group: Generated<string>;
  used_quota: Generated<number>;
  model_mapping: string | null;
  status_code_mapping: Generated<string>;
  priority: Generated<number>;
  auto_ban: Generated<number>;
  other_info: string | null;
  tag: string | null;
  setting: string | null;
  param_override: string | null;
  header_override: string | null;
  max_input_tokens: Generated<number>;
}

export interface AbilityTable {
  group: string;
  model: string;
  channel_id: number;
  enabled: Generated<number>;
  priority: Generated<number>;
  weight: Generated<number>;
  tag: string | null;
}

export interface OptionTable {
  key: string;
  value: string | null;
}

export interface RedemptionTable {
  id: Generated<number>;
  user_id: Generated<number>;
  key: string;
  status: Generated<number>;
  name: Generated<string>;
  quota: Generated<number>;
  created_time: Generated<number>;
  redeemed_time: Generated<number>;
  used_user_id: Generated<number>;
  /** Unix seconds, or a datetime in tables adopted from new-api (soft-delete.ts). */
  deleted_at: number | string | null;
}

export interface LogTable {
  id: Generated<number>;
  user_id: Generated<number>;
  created_at: Generated<number>;
  type: Generated<number>;
  content: string | null;
  username: Generated<string>;
  token_name: Generated<string>;
  model_name: Generated<string>;
  quota: Generated<number>;
  prompt_tokens: Generated<number>;
  completion_tokens: Generated<number>;
  use_time: Generated<number>;
  is_stream: Generated<number>;
  channel_id: Generated<number>;
  token_id: Generated<number>;
  group: Generated<string>;
  ip: Generated<string>;
  other: string | null;
}

/** Sums of consume-log columns per grain and bucket of time (logs/rollup/, log database). */
export interface LogRollupTable {
  grain: number;
  span: number;
  user_id: Generated<number>;
  bucket: number;
  type: Generated<number>;
  username: Generated<string>;
  token_name: Generated<string>;
  model_name: Generated<string>;
  channel_id: Generated<number>;
  group: Generated<string>;
  count: Generated<number>;
  quota: Generated<number>;
  prompt_tokens: Generated<number>;
  completion_tokens: Generated<number>;
}

/** One row (id 1): the highest logs.id counted in log_rollups. */
export interface LogRollupStateTable {
  id: number;
  rolled_up_through: Generated<number>;
}

export interface MidjourneyTable {
  id: Generated<number>;
  code: Generated<number>;
  user_id: Generated<number>;
  action: Generated<string>;
  mj_id: Generated<string>;
  prompt: string | null;
  prompt_en: string | null;
  description: string | null;
  state: string | null;
  submit_time: Generated<number>;
  start_time: Generated<number>;
  finish_time: Generated<number>;
  image_url: string | null;
  status: Generated<string>;
  progress: Generated<string>;
  fail_reason: string | null;
  channel_id: Generated<number>;
  quota: Generated<number>;
  token_id: Generated<number>;
  buttons: string | null;
  properties: string | null;
}

export interface TaskTable {
  id: Generated<number>;
  created_at: Generated<number>;
  updated_at: Generated<number>;
  task_id: Generated<string>;
  platform: Generated<string>;
  user_id: Generated<number>;
  channel_id: Generated<number>;
  token_id: Generated<number>;
  quota: Generated<number>;
  action: Generated<string>;
  status: Generated<string>;
  fail_reason: string | null;
  submit_time: Generated<number>;
  start_time: Generated<number>;
  finish_time: Generated<number>;
  progress: Generated<string>;
  properties: string | null;
  data: string | null;
}

export interface TopUpTable {
  id: Generated<number>;
  user_id: Generated<number>;
  amount: Generated<number>;
  money: Generated<number>;
  trade_no: string;
  payment_method: Generated<string>;
  create_time: Generated<number>;
  complete_time: Generated<number>;
  status: Generated<string>;
}

export interface QuotaDataTable {
  id: Generated<number>;
  user_id: Generated<number>;
  username: Generated<string>;
  model_name: Generated<string>;
  created_at: Generated<number>;
  token_used: Generated<number>;
  count: Generated<number>;
  quota: Generated<number>;
}

/** quota_data summed per model and hour (the dashboard's all-user view). */
export interface QuotaDataModelTable {
  id: Generated<number>;
  model_name: Generated<string>;
  created_at: Generated<number>;
  token_used: Generated<number>;
  count: Generated<number>;
  quota: Generated<number>;
}

export interface SetupTable {
  id: Generated<number>;
  version: string;
  initialized_at: number;
}

/** One-time codes: e-mail verification codes and password-reset tokens, shared by all nodes. */
export interface VerificationTable {
  id: Generated<number>;
  purpose: string;
  subject: string;
  code: string;
  expires_at: number;
  created_at: number;
}

/** Reserved-but-unsettled quota (the reservation ledger); `created_at` in milliseconds. */
export interface ReservationTable {
  id: string;
  request_id: string;
  user_id: number;
  token_id: number;
  token_limited: number;
  amount: number;
  created_at: number;
  /** 'reserved' until settled; 'settled' rows wait for their consume log and counters to be written. */
  state: Generated<string>;
  /** The process (node_instances.id) that holds the reservation. */
  instance_id: Generated<string>;
  /** Quota charged at settlement (state 'settled'). */
  charged: Generated<number>;
  channel_id: Generated<number>;
  /** The pending consume log row and counter increments, JSON (state 'settled'). */
  entry: Generated<string>;
}

/** Living Switchyard processes: each beats every few seconds; a stale one is dead. Times in ms. */
export interface NodeInstanceTable {
  id: string;
  node_type: string;
  started_at: number;
  heartbeat_at: number;
}

/** Model request rate limits shared by nodes without Redis: one lockable row per key. */
export interface RateLimitKeyTable {
  key: string;
}

/**
 * One admitted hit of a database-backed sliding window; `hit_at` and `expires_at` (hit_at plus
 * the window it was admitted under, for the sweep of idle keys) in milliseconds.
 */
export interface RateLimitHitTable {
  ticket: string;
  key: string;
  hit_at: number;
  expires_at: number;
}

export interface RevokedSessionTable {
  id: string;
  expires_at: number;
}

export interface SessionGenerationTable {
  user_id: number;
  generation: number;
}

/** How far each log retention rule has walked the logs table (logs/retention/). */
export interface LogRetentionCursorTable {
  rule: string;
  last_id: number;
}

export interface Database {
  users: UserTable;
  tokens: TokenTable;
  channels: ChannelTable;
  abilities: AbilityTable;
  options: OptionTable;
  redemptions: RedemptionTable;
  logs: LogTable;
  log_retention_cursors: LogRetentionCursorTable;
  log_rollups: LogRollupTable;
  log_rollup_state: LogRollupStateTable;
  midjourneys: MidjourneyTable;
  tasks: TaskTable;
  top_ups: TopUpTable;
  quota_data: QuotaDataTable;
  quota_data_models: QuotaDataModelTable;
  setups: SetupTable;
  verifications: VerificationTable;
  reservations: ReservationTable;
  node_instances: NodeInstanceTable;
  rate_limit_keys: RateLimitKeyTable;
  rate_limit_hits: RateLimitHitTable;
  revoked_sessions: RevokedSessionTable;
  session_generations: SessionGenerationTable;
}
