import type { QuotaDataBucket } from '@switchyard/shared';
import { useQuery } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { apiClient } from '../../../lib/api-client';
import type { Granularity } from '../components/chart-data';

export interface QuotaDataQuery {
  start: number;
  end: number;
  /** Admin only: one user's buckets ('' = every user). */
  username: string;
  granularity: Granularity;
}

/**
 * The buckets the server sums to: hours for the hourly chart; local days for days and weeks (the
 * chart sums days into weeks itself), so a month is about 30 rows per model instead of 720.
 */
const serverSlot = (granularity: Granularity) => (granularity === 'hour' ? 'hour' : 'day');

/**
 * GET /api/data/ (admin; every user, or `username`'s) or GET /api/data/self → buckets per model.
 * Both row shapes carry model_name, created_at, count, quota and token_used. `default_time` is the
 * granularity (as new-api's console sends it); `utc_offset`, this browser's UTC offset in minutes,
 * asks the server for local-day buckets.
 */
export function getQuotaData(query: QuotaDataQuery, admin: boolean, signal?: AbortSignal) {
  const byDay = serverSlot(query.granularity) === 'day';
  return apiClient.get<QuotaDataBucket[] | null>(admin ? '/api/data/' : '/api/data/self', {
    query: {
      start_timestamp: query.start,
      end_timestamp: query.end,
      ...(admin && query.username.trim() !== '' ? { username: query.username.trim() } : {}),
      default_time: query.granularity,
      ...(byDay ? { utc_offset: dayjs.unix(query.end).utcOffset() } : {}),
    },
    ...(signal ? { signal } : {}),
  });
}

export function useQuotaDataQuery(query: QuotaDataQuery, admin: boolean) {
  const { granularity, ...range } = query;
  const slot = serverSlot(granularity);
  return useQuery({
    // Switching between days and weeks reuses the day buckets; hours need their own.
    queryKey: ['dashboard', admin ? 'admin' : 'self', range, slot],
    queryFn: async ({ signal }) => (await getQuotaData(query, admin, signal)) ?? [],
    // Keep the previous answer on screen while the next loads, unless its buckets are of another
    // size (day rows drawn as hours would mislead).
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[3] === slot ? previous : undefined,
  });
}
