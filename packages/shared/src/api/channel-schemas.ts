import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { NullableText } from './nullable-text.ts';
import { QueryInteger } from './query-integer.ts';

/**
 * Channels API (admin). Bodies are validated strictly (no coercion); query strings are text, so
 * their flags are strings read as true when `true` or `1`.
 *
 * Wire conventions (as the reference): `models` and `group` are comma strings; `model_mapping`,
 * `status_code_mapping`, `setting`, `param_override` and `header_override` are JSON object text
 * ('' = unset). The channel key is a secret: no reply carries it, except
 * `GET /api/channel/:id?with_key=true` for the root user.
 */

/** Longest value of a TEXT column that fits MySQL's 64 KB in utf8mb4 (4 bytes per character). */
const TEXT_MAX = 16_000;

/** The editable channel fields, shared by create and update. All optional on the wire. */
const channelFields = {
  /** Channel type id (see CHANNEL_TYPES). Default 1 (OpenAI) on create. */
  type: Type.Optional(Type.Integer({ minimum: 0, maximum: 10_000 })),
  name: Type.Optional(Type.String({ maxLength: 255 })),
  /** Create: one key, or one per line with mode 'batch'. Update: '' or absent keeps the stored key. */
  key: Type.Optional(Type.String({ maxLength: 2_000_000 })),
  base_url: NullableText(1024),
  other: NullableText(TEXT_MAX),
  /** Comma-separated model names; trimmed and deduplicated by the server. */
  models: Type.Optional(Type.String({ maxLength: TEXT_MAX })),
  /** Comma-separated group names; '' means 'default'. */
  group: Type.Optional(Type.String({ maxLength: 255 })),
  model_mapping: NullableText(TEXT_MAX),
  status_code_mapping: NullableText(1024),
  setting: NullableText(TEXT_MAX),
  param_override: NullableText(TEXT_MAX),
  header_override: NullableText(TEXT_MAX),
  /** '' or null removes the tag. */
  tag: NullableText(255),
  openai_organization: NullableText(255),
  test_model: NullableText(255),
  /** Higher is preferred; at least -999. */
  priority: Type.Optional(Type.Integer({ minimum: -1e15, maximum: 1e15 })),
  /** Weighted choice inside a priority tier; a negative weight is saved as 0. */
  weight: Type.Optional(Type.Integer({ minimum: -1e15, maximum: 2_147_483_647 })),
  /** 1 lets the gateway disable the channel automatically on channel faults. */
  auto_ban: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
  max_input_tokens: Type.Optional(Type.Integer({ minimum: 0, maximum: 2_147_483_647 })),
  /** 1 enabled, 2 disabled by hand, 3 disabled automatically. Default 1 on create. */
  status: Type.Optional(Type.Integer({ minimum: 1, maximum: 3 })),
} satisfies Record<string, TSchema>;

/**
 * POST /api/channel/ — the channel fields plus `mode`.
 * - `single` (default): one channel; `key` is stored whole (trimmed).
 * - `batch`: one channel per non-empty line of `key` (lines trimmed). The first is named `name`,
 *   the n-th (1-based, counting only non-empty lines) `name_n`: `name`, `name_2`, `name_3`, ...
 *   Vertex AI (type 41) keys are service-account JSON and are never split.
 * For compatibility with new-api's console the fields may also come nested as `{mode, channel: {...}}`.
 * Reply `data`: the created channels (ChannelView[], without keys).
 */
export const ChannelCreateBody = Type.Object({
  ...channelFields,
  mode: Type.Optional(Type.Union([Type.Literal('single'), Type.Literal('batch')])),
  channel: Type.Optional(Type.Object(channelFields)),
});
export type ChannelCreateBody = Static<typeof ChannelCreateBody>;

/**
 * PUT /api/channel/ — `id` plus the fields to change; absent fields stay unchanged (an explicit 0
 * priority or weight is applied). The key is replaced only by a non-empty `key`.
 * Reply `data`: the updated ChannelView (with the new status).
 */
export const ChannelUpdateBody = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  ...channelFields,
});
export type ChannelUpdateBody = Static<typeof ChannelUpdateBody>;

/**
 * GET /api/channel/?p=&page_size=&id_sort=&tag_mode= → `data`: ChannelView[] (one page). `p` from
 * 0, page_size 1..100 (default 10); non-integer values count as 0 (QueryInteger).
 */
export const ChannelListQuery = Type.Object({
  p: QueryInteger({ maximum: 100_000_000 }),
  page_size: QueryInteger(),
  /** 'true' orders by id desc; otherwise priority desc, then id desc. */
  id_sort: Type.Optional(Type.String({ maxLength: 10 })),
  /** 'true' pages over tags: the channels of the page's tags (untagged channels left out). */
  tag_mode: Type.Optional(Type.String({ maxLength: 10 })),
});
export type ChannelListQuery = Static<typeof ChannelListQuery>;

/**
 * GET /api/channel/search — ChannelListQuery plus filters (page_size 100 by default), all optional
 * and combined with AND: `keyword` is the id (exact) or a substring of the name or key; `group` one
 * of the channel's groups (exact; `null` reads as not given, as the reference console may send
 * it); `model` a substring of one of its models. Substring matches ignore ASCII case.
 */
export const ChannelSearchQuery = Type.Object({
  ...ChannelListQuery.properties,
  keyword: Type.Optional(Type.String({ maxLength: 255 })),
  group: Type.Optional(Type.String({ maxLength: 64 })),
  model: Type.Optional(Type.String({ maxLength: 255 })),
});
export type ChannelSearchQuery = Static<typeof ChannelSearchQuery>;

/** A channel as the console sees it. `key` is present only on the root's with_key=true read. */
export interface ChannelView {
  id: number;
  type: number;
  name: string;
  key?: string;
  openai_organization: string;
  test_model: string;
  status: number;
  weight: number;
  created_time: number;
  test_time: number;
  /** Milliseconds of the last test; 0 = untested. */
  response_time: number;
  base_url: string;
  other: string;
  balance: number;
  balance_updated_time: number;
  models: string;
  group: string;
  used_quota: number;
  model_mapping: string;
  status_code_mapping: string;
  priority: number;
  auto_ban: number;
  /** JSON text `{"status_reason", "status_time"}` as stored; '' when unset. */
  other_info: string;
  /** '' when the channel has no tag. */
  tag: string;
  setting: string;
  param_override: string;
  header_override: string;
  max_input_tokens: number;
}

/** An entry of GET /api/channel/models (OpenAI model object). */
export interface KnownModel {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
}
