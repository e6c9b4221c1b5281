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
