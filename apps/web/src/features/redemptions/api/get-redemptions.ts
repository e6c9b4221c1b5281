import type { RedemptionPage, RedemptionView } from '@switchyard/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { redemptionKeys } from './redemption-keys';

export interface RedemptionListQuery {
  page: number;
  pageSize: number;
  /** Id, full code or part of the name. */
  keyword: string;
}

/** GET /api/redemption/?p&page_size, or /api/redemption/search?keyword&p&page_size (p from 1). */
export async function getRedemptions(
  query: RedemptionListQuery,
  signal?: AbortSignal,
): Promise<RedemptionPage> {
  const keyword = query.keyword.trim();
  const data = await apiClient.get<RedemptionPage | null>(
    keyword ? '/api/redemption/search' : '/api/redemption/',
    {
      query: { ...(keyword ? { keyword } : {}), p: query.page, page_size: query.pageSize },
      ...(signal ? { signal } : {}),
    },
  );
  return {
    items: data?.items ?? [],
    total: data?.total ?? 0,
    page: data?.page ?? query.page,
    page_size: data?.page_size ?? query.pageSize,
  };
}

export const redemptionsQueryOptions = (query: RedemptionListQuery) =>
  queryOptions({
    queryKey: redemptionKeys.list(query),
    queryFn: ({ signal }) => getRedemptions(query, signal),
    placeholderData: keepPreviousData,
  });

export function useRedemptionsQuery(query: RedemptionListQuery) {
  return useQuery(redemptionsQueryOptions(query));
}

/** GET /api/redemption/{id} */
export function getRedemption(id: number, signal?: AbortSignal): Promise<RedemptionView> {
  return apiClient.get<RedemptionView>(`/api/redemption/${id}`, signal ? { signal } : {});
}

export function useRedemptionQuery(id: number, enabled = true) {
  return useQuery({
    queryKey: redemptionKeys.detail(id),
    queryFn: ({ signal }) => getRedemption(id, signal),
    staleTime: 0,
    enabled,
  });
}
