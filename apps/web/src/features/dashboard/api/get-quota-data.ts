import type { QuotaDataBucket } from '@switchyard/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

export interface QuotaDataQuery {
  start: number;
  end: number;
  /** Admin only: one user's buckets ('' = every user). */
  username: string;
}

/**
 * GET /api/data/ (admin; every user, or `username`'s) or GET /api/data/self → hourly buckets per
 * model. Both row shapes carry model_name, created_at, count, quota and token_used.
 */
export function getQuotaData(query: QuotaDataQuery, admin: boolean, signal?: AbortSignal) {
  return apiClient.get<QuotaDataBucket[] | null>(admin ? '/api/data/' : '/api/data/self', {
    query: {
      start_timestamp: query.start,
      end_timestamp: query.end,
      ...(admin && query.username.trim() !== '' ? { username: query.username.trim() } : {}),
    },
    ...(signal ? { signal } : {}),
  });
}

export function useQuotaDataQuery(query: QuotaDataQuery, admin: boolean) {
  return useQuery({
    queryKey: ['dashboard', admin ? 'admin' : 'self', query],
    queryFn: async ({ signal }) => (await getQuotaData(query, admin, signal)) ?? [],
    placeholderData: keepPreviousData,
  });
}
