import { UTC_OFFSET_MAX, UTC_OFFSET_MIN } from '@switchyard/shared';

/**
 * How the dashboard's answer is bucketed. quota_data keeps hours; a console that says which UTC
 * offset its days start at (`utc_offset`, minutes east of UTC) and asks for days or weeks
 * (`default_time`, which new-api's console already sends) gets one row per model and local day,
 * so a month reads about 30 rows per model instead of 720. Without an offset the answer stays
 * hourly, which is what new-api's console expects: it sums hours into its own local days.
 */
export type QuotaDataSlot = { kind: 'hour' } | { kind: 'day'; offsetSeconds: number };

export const HOURLY: QuotaDataSlot = { kind: 'hour' };

export const DAY = 86_400;

/**
 * The slot a query asks for: days when `default_time` is day or week and `utc_offset` is an
 * integer within the offsets in use (weeks are summed from days by the console, which knows its
 * week start); hours otherwise.
 */
export function slotOfQuery(defaultTime: string | undefined, utcOffset: unknown): QuotaDataSlot {
  if (defaultTime !== 'day' && defaultTime !== 'week') return HOURLY;
  if (typeof utcOffset !== 'number' || !Number.isInteger(utcOffset)) return HOURLY;
  if (utcOffset < UTC_OFFSET_MIN || utcOffset > UTC_OFFSET_MAX) return HOURLY;
  return { kind: 'day', offsetSeconds: utcOffset * 60 };
}

/** The start (Unix seconds) of the slot an hour bucket falls in. */
export function slotStart(hourStart: number, slot: QuotaDataSlot): number {
  if (slot.kind === 'hour') return hourStart;
  const local = hourStart + slot.offsetSeconds;
  return local - (((local % DAY) + DAY) % DAY) - slot.offsetSeconds;
}
