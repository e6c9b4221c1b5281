/**
 * Public pricing API: `GET /api/pricing` (no login needed; a console session or access token, if
 * present, selects the caller's groups). The reply keeps the reference's shape, with the group
 * maps BESIDE `data`:
 *
 * ```json
 * {"success": true, "message": "", "data": [PricingEntry...],
 *  "group_ratio": {"default": 1, "vip": 0.8}, "usable_group": {"default": "默认分组", "vip": "..."}}
 * ```
 *
 * - `data`: one entry per model with at least one enabled ability (channel in a group), sorted by
 *   model name. Recomputed at most once a minute, and at once after a channel or option change.
 * - `group_ratio` / `usable_group`: only the groups the caller may use (UserUsableGroups plus the
 *   user's own group, limited to groups with a GroupRatio); anonymous callers get the default set.
 */

/** Billing mode of a model: 0 = token ratios, 1 = fixed price per call. */
export const PricingQuotaType = { Ratio: 0, Price: 1 } as const;

/** One model of the pricing list. */
export interface PricingEntry {
  model_name: string;
  /** PricingQuotaType: 0 ratio (model_ratio, completion_ratio apply) or 1 price (model_price applies). */
  quota_type: number;
  /** 0 for per-call models. Unpriced models show the self-use default ratio 37.5. */
  model_ratio: number;
  /** Dollars per call; 0 for ratio-priced models. */
  model_price: number;
  /** Always '' (kept for the reference console). */
  owner_by: string;
  /** 0 for per-call models. */
  completion_ratio: number;
  /** Groups with an enabled channel serving the model, sorted. */
  enable_groups: string[];
}

/** The whole `GET /api/pricing` reply body. */
export interface PricingReply {
  success: true;
  message: string;
  data: PricingEntry[];
  group_ratio: Record<string, number>;
  usable_group: Record<string, string>;
}
