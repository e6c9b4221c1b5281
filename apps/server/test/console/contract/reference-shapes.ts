import { expect } from 'vitest';

/**
 * The JSON shapes new-api v0.4.8.9.1 answers on its console API, written from its Go structs
 * (model/token.go, model/channel.go, model/midjourney.go, model/task.go): every field name with the
 * JSON types Go's encoder can give it (a pointer field may be null). Switchyard's answers must
 * carry every field with one of those types; the fields it leaves out on purpose are listed in
 * docs/console-wire.md and named in `omitted`.
 */
type JsonType = 'number' | 'string' | 'boolean' | 'null' | 'object' | 'array';
export type Shape = Record<string, readonly JsonType[]>;

const n = ['number'] as const;
const s = ['string'] as const;
const b = ['boolean'] as const;
const nullableString = ['string', 'null'] as const;
const nullableNumber = ['number', 'null'] as const;

/** model.Token. `DeletedAt` (gorm's soft-delete stamp, always null in answers) is not sent. */
export const TOKEN: Shape = {
  id: n,
  user_id: n,
  key: s,
  status: n,
  name: s,
  created_time: n,
  accessed_time: n,
  expired_time: n,
  remain_quota: n,
  unlimited_quota: b,
  model_limits_enabled: b,
  model_limits: s,
  allow_ips: nullableString,
  used_quota: n,
  group: s,
};

/** model.Channel as its list, search and get answer it. `key` (sent as '' there) is left out. */
export const CHANNEL: Shape = {
  id: n,
  type: n,
  openai_organization: nullableString,
  test_model: nullableString,
  status: n,
  name: s,
  weight: nullableNumber,
  created_time: n,
  test_time: n,
  response_time: n,
  base_url: nullableString,
  other: s,
  balance: n,
  balance_updated_time: n,
  models: s,
  group: s,
  used_quota: n,
  model_mapping: nullableString,
  status_code_mapping: nullableString,
  priority: nullableNumber,
  auto_ban: nullableNumber,
  other_info: s,
  tag: nullableString,
  setting: s,
};

/** model.Midjourney: times in milliseconds; `buttons` and `properties` are JSON text. */
export const MIDJOURNEY: Shape = {
  id: n,
  code: n,
  user_id: n,
  action: s,
  mj_id: s,
  prompt: s,
  prompt_en: s,
  description: s,
  state: s,
  submit_time: n,
  start_time: n,
  finish_time: n,
  image_url: s,
  status: s,
  progress: s,
  fail_reason: s,
  channel_id: n,
  quota: n,
  buttons: s,
  properties: s,
};

/** model.Task: `properties` is a struct, `data` raw JSON. */
export const TASK: Shape = {
  id: n,
  created_at: n,
  updated_at: n,
  task_id: s,
  platform: s,
  user_id: n,
  channel_id: n,
  quota: n,
  action: s,
  status: s,
  fail_reason: s,
  submit_time: n,
  start_time: n,
  finish_time: n,
  progress: s,
  properties: ['object', 'null'],
  data: ['object', 'array', 'null'],
};

/** The `data` of the paged lists that keep a count (users, redemptions, logs). */
export const PAGE: Shape = { items: ['array'], total: n, page: n, page_size: n };

const typeOf = (value: unknown): JsonType =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : (typeof value as JsonType);

/** Every field of the shape is present with one of its JSON types. */
export function expectShape(value: unknown, shape: Shape, label: string): void {
  expect(typeOf(value), label).toBe('object');
  const record = value as Record<string, unknown>;
  for (const [field, types] of Object.entries(shape)) {
    expect(Object.hasOwn(record, field), `${label}: field ${field}`).toBe(true);
    expect(types, `${label}: ${field} = ${JSON.stringify(record[field])}`).toContain(typeOf(record[field]));
  }
}

/** `data` is a bare array (the console does data.length / data.slice on it) of `shape` rows. */
export function expectArrayOf(data: unknown, shape: Shape, label: string): unknown[] {
  expect(
    Array.isArray(data),
    `${label}: data is a bare array, got ${JSON.stringify(data)?.slice(0, 200)}`,
  ).toBe(true);
  for (const [index, row] of (data as unknown[]).entries()) expectShape(row, shape, `${label}[${index}]`);
  return data as unknown[];
}

/**
 * model.User as GetSelf and GetUser answer it. Left out on purpose (docs/console-wire.md):
 * `password` and `verification_code` (always '' there), `access_token` (always null there).
 */
export const USER: Shape = {
  id: n,
  username: s,
  display_name: s,
  role: n,
  status: n,
  email: s,
  github_id: s,
  wechat_id: s,
  telegram_id: s,
  quota: n,
  used_quota: n,
  request_count: n,
  group: s,
  aff_code: s,
  aff_count: n,
  aff_quota: n,
  aff_history_quota: n,
  inviter_id: n,
  linux_do_id: s,
  setting: s,
};

/** model.Redemption. `count` (a request-only field, always 0 in answers) is left out. */
export const REDEMPTION: Shape = {
  id: n,
  user_id: n,
  key: s,
  status: n,
  name: s,
  quota: n,
  created_time: n,
  redeemed_time: n,
  used_user_id: n,
};

/** model.Pricing, one row of `GET /api/pricing`'s `data`. */
export const PRICING: Shape = {
  model_name: s,
  quota_type: n,
  model_ratio: n,
  model_price: n,
  owner_by: s,
  completion_ratio: n,
  enable_groups: ['array'],
};

/** model.QuotaData, one row of `GET /api/data/` and `/api/data/self`. */
export const QUOTA_DATA: Shape = {
  id: n,
  user_id: n,
  username: s,
  model_name: s,
  created_at: n,
  token_used: n,
  count: n,
  quota: n,
};

/** model.Stat as GetLogsStat and GetLogsSelfStat answer it. */
export const LOG_STAT: Shape = { quota: n, rpm: n, tpm: n };

/** The gin.H that GetStatus builds. */
export const STATUS: Shape = {
  version: s,
  start_time: n,
  email_verification: b,
  github_oauth: b,
  github_client_id: s,
  linuxdo_oauth: b,
  linuxdo_client_id: s,
  telegram_oauth: b,
  telegram_bot_name: s,
  system_name: s,
  logo: s,
  footer_html: s,
  wechat_qrcode: s,
  wechat_login: b,
  server_address: s,
  price: n,
  min_topup: n,
  turnstile_check: b,
  turnstile_site_key: s,
  top_up_link: s,
  chat_link: s,
  chat_link2: s,
  quota_per_unit: n,
  display_in_currency: b,
  enable_batch_update: b,
  enable_drawing: b,
  enable_task: b,
  enable_data_export: b,
  data_export_default_time: s,
  default_collapse_sidebar: b,
  enable_online_topup: b,
  mj_notify_enabled: b,
  chats: ['array'],
  demo_site_enabled: b,
  self_use_mode_enabled: b,
};
