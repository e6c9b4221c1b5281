import type { TokenView } from '@switchyard/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { tokenKeys } from './token-keys';

export interface TokenListQuery {
  /** From 1, as the table counts; the API's `p` counts from 0. */
  page: number;
  pageSize: number;
  /** Name filter. */
  keyword: string;
  /** Key filter (an `sk-` prefix is ignored by the server). */
  token: string;
}

/**
 * GET /api/token/?p&size, or GET /api/token/search?keyword&token&p&size when a filter is set.
 * Both answer one page as a bare array, without a total (see openEndedTotal).
 */
export async function getTokens(query: TokenListQuery, signal?: AbortSignal): Promise<TokenView[]> {
  const keyword = query.keyword.trim();
  const token = query.token.trim();
  const searching = keyword !== '' || token !== '';
  const data = await apiClient.get<TokenView[] | null>(searching ? '/api/token/search' : '/api/token/', {
    query: { ...(searching ? { keyword, token } : {}), p: query.page - 1, size: query.pageSize },
    ...(signal ? { signal } : {}),
  });
  return data ?? [];
}

export const tokensQueryOptions = (query: TokenListQuery) =>
  queryOptions({
    queryKey: tokenKeys.list(query),
    queryFn: ({ signal }) => getTokens(query, signal),
    placeholderData: keepPreviousData,
  });

export function useTokensQuery(query: TokenListQuery) {
  return useQuery(tokensQueryOptions(query));
}
