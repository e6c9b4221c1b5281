import { type Static, Type } from '@sinclair/typebox';
import { QueryInteger } from './query-integer.ts';

/** Longest redemption code name, counted in characters. */
export const REDEMPTION_NAME_MAX_LENGTH = 20;
/** Most codes one create call makes. */
export const REDEMPTION_CREATE_MAX_COUNT = 100;
/** The editor's default quota for a new code (raw units). */
export const REDEMPTION_DEFAULT_QUOTA = 100_000;
/** Largest quota one code may carry: far below 2^53 so balances stay exact. */
export const REDEMPTION_QUOTA_MAX = 1e15;
/** Length of a redemption code: 32 lowercase hexadecimal characters. */
export const REDEMPTION_KEY_LENGTH = 32;

const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

/** GET /api/redemption/?p=&page_size= — `p` counts from 1, `page_size` is clamped to 1..100 (default 10). */
export const RedemptionListQuery = Type.Object({
  p: QueryInteger(),
  page_size: QueryInteger(),
});
export type RedemptionListQuery = Static<typeof RedemptionListQuery>;

/**
 * GET /api/redemption/search?keyword=&p=&page_size= — `keyword` matches the id exactly, the
 * full code exactly, or the name as a case-insensitive substring (a prefix is a substring).
 */
export const RedemptionSearchQuery = Type.Object({
  keyword: Type.Optional(Type.String({ maxLength: 255 })),
  p: QueryInteger(),
  page_size: QueryInteger(),
});
export type RedemptionSearchQuery = Static<typeof RedemptionSearchQuery>;

/** Path parameter of the per-code routes. */
export const RedemptionIdParams = Type.Object({ id: Id });
export type RedemptionIdParams = Static<typeof RedemptionIdParams>;

/**
 * POST /api/redemption/ — `name` 1..20 characters (empty = the formatted quota, e.g. `$0.20`),
 * `quota` a positive integer of raw units, `count` 1..100 (default 1).
 */
export const RedemptionCreateBody = Type.Object({
  name: Type.Optional(Type.String({ maxLength: 255 })),
  quota: Type.Integer(),
  count: Type.Optional(Type.Integer()),
});
export type RedemptionCreateBody = Static<typeof RedemptionCreateBody>;

/**
 * PUT /api/redemption/ — `id` plus `name` and/or `quota`, only while the code is unused (status 1).
 * With `?status_only=true` only `status` is read: 1 enables, 2 disables; a used code (3) cannot
 * change status.
 */
export const RedemptionUpdateBody = Type.Object({
  id: Id,
  name: Type.Optional(Type.String({ maxLength: 255 })),
  quota: Type.Optional(Type.Integer()),
  status: Type.Optional(Type.Integer()),
});
export type RedemptionUpdateBody = Static<typeof RedemptionUpdateBody>;

/** Query of PUT /api/redemption/: any non-empty `status_only` other than `false`/`0` selects a status-only update. */
export const RedemptionUpdateQuery = Type.Object({
  status_only: Type.Optional(Type.String({ maxLength: 16 })),
});
export type RedemptionUpdateQuery = Static<typeof RedemptionUpdateQuery>;

/** POST /api/user/topup — redeem a code for the logged-in user; `data` of the reply is the quota added. */
export const RedeemBody = Type.Object({
  key: Type.String({ maxLength: 255 }),
});
export type RedeemBody = Static<typeof RedeemBody>;

/** A redemption code as the admin console sees it (admins only: `key` is the full code). */
export interface RedemptionView {
  id: number;
  /** The admin who created the code. */
  user_id: number;
  key: string;
  /** 1 unused, 2 disabled, 3 used. */
  status: number;
  name: string;
  quota: number;
  created_time: number;
  /** Unix seconds; 0 while unused. */
  redeemed_time: number;
  /** The user who redeemed it; 0 while unused. */
  used_user_id: number;
}

/** `data` of GET /api/redemption/ and /search. `page` counts from 1, as `p` does. */
export interface RedemptionPage {
  items: RedemptionView[];
  total: number;
  page: number;
  page_size: number;
}
