import { type Static, Type } from '@sinclair/typebox';
import { QueryInteger } from './query-integer.ts';

/** Longest token name, counted in characters (the reference counts bytes; characters suit CJK names). */
export const TOKEN_NAME_MAX_LENGTH = 30;
/** Length of the random suffix (`-` + this many alphanumerics) given to the extra tokens of a batch. */
export const TOKEN_NAME_SUFFIX_LENGTH = 6;
/** Most tokens one create call makes; larger counts are capped and the reply says so. */
export const TOKEN_CREATE_MAX_COUNT = 100;
/** Most rows one token search page returns. */
export const TOKEN_SEARCH_MAX_ROWS = 100;
/** Longest stored model-limit list (the column is varchar(1024)). */
export const TOKEN_MODEL_LIMITS_MAX_LENGTH = 1024;
/** Prefix clients see in front of the stored 48-character key. */
export const TOKEN_KEY_PREFIX = 'sk-';

/**
 * GET /api/token/?p=&size= → `data`: TokenView[] (one page). `p` counts from 0, `size` is clamped
 * to 1..100 (default 10); non-integer values count as 0 (QueryInteger).
 */
export const TokenListQuery = Type.Object({
  p: QueryInteger(),
  size: QueryInteger(),
});
export type TokenListQuery = Static<typeof TokenListQuery>;

/**
 * GET /api/token/search?keyword=&token= — name contains `keyword` and/or key contains `token`
 * (an `sk-` prefix is ignored; `*` runs match anything, so a masked key finds its token).
 * → `data`: TokenView[]. Optional `p` (from 0) and `size` (1..100, default 100).
 */
export const TokenSearchQuery = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: 255 })),
  token: Type.Optional(Type.String({ maxLength: 255 })),
  p: QueryInteger(),
  size: QueryInteger(),
});
export type TokenSearchQuery = Static<typeof TokenSearchQuery>;

/** Path parameter of the per-token routes. */
export const TokenIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

/** Editable token fields shared by create and update. Unknown fields are ignored, never stripped. */
const tokenFields = {
  name: Type.Optional(Type.String({ maxLength: 255 })),
  /** Raw quota units; must be an integer ≥ 0 (checked by the server with a readable message). */
  remain_quota: Type.Optional(Type.Integer()),
  unlimited_quota: Type.Optional(Type.Boolean()),
  /** -1 = never expires; otherwise a Unix time in SECONDS in the future. */
  expired_time: Type.Optional(Type.Integer()),
  model_limits_enabled: Type.Optional(Type.Boolean()),
  /** Comma-separated model names; trimmed and deduplicated by the server. */
  model_limits: Type.Optional(Type.String({ maxLength: 8192 })),
  /** One IPv4/IPv6 address or CIDR range per line; empty = unrestricted. */
  allow_ips: Type.Optional(Type.Union([Type.String({ maxLength: 8192 }), Type.Null()])),
  /** '' = the user's own group; otherwise one of the user's usable groups. */
  group: Type.Optional(Type.String({ maxLength: 64 })),
};

/** POST /api/token/ — `name` is required (checked by the server); `count` 1..100, default 1. */
export const TokenCreateBody = Type.Object({
  ...tokenFields,
  count: Type.Optional(Type.Integer()),
});
export type TokenCreateBody = Static<typeof TokenCreateBody>;

/**
 * PUT /api/token/ — `id` plus the fields to change. With `?status_only=true` only `status`
 * (1 enabled or 2 disabled) is read; a full update ignores `status`.
 */
export const TokenUpdateBody = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  ...tokenFields,
  status: Type.Optional(Type.Integer()),
});
export type TokenUpdateBody = Static<typeof TokenUpdateBody>;

/** Query of PUT /api/token/: any non-empty `status_only` other than `false`/`0` selects a status-only update. */
export const TokenUpdateQuery = Type.Object({
  status_only: Type.Optional(Type.String({ maxLength: 16 })),
});
export type TokenUpdateQuery = Static<typeof TokenUpdateQuery>;

/**
 * A token as its owner sees it. `key` is the stored key, 48 characters without `sk-`: clients
 * show, copy and use it as `sk-` + key (TOKEN_KEY_PREFIX).
 */
export interface TokenView {
  id: number;
  user_id: number;
  name: string;
  key: string;
  /** 1 enabled, 2 disabled, 3 expired, 4 exhausted. */
  status: number;
  created_time: number;
  accessed_time: number;
  /** -1 = never; Unix seconds otherwise. */
  expired_time: number;
  remain_quota: number;
  used_quota: number;
  unlimited_quota: boolean;
  model_limits_enabled: boolean;
  model_limits: string;
  allow_ips: string;
  group: string;
}

/** One element of the create reply's `data`: the only time (besides /:id/key) a full key is sent. */
export interface TokenCreated {
  id: number;
  name: string;
  /** Full key with the `sk-` prefix. */
  key: string;
}

/** `data` of POST /api/token/:id/key. */
export interface TokenKeyView {
  id: number;
  /** Full key with the `sk-` prefix. */
  key: string;
}
