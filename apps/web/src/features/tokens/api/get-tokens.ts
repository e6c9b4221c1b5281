import type { TokenPage } from '@switchyard/shared';
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
 * The token list's fetch size equals the page size.
 */
export async function getTokens(query: TokenListQuery, signal?: AbortSignal): Promise<TokenPage> {
  const keyword = query.keyword.trim();
  const token = query.token.trim();
  const searching = keyword !== '' || token !== '';
  const data = await apiClient.get<TokenPage | null>(searching ? '/api/token/search' : '/api/token/', {
    query: { ...(searching ? { keyword, token } : {}), p: query.page - 1, size: query.pageSize },
    ...(signal ? { signal } : {}),
  });
  return {
    items: data?.items ?? [],
    total: data?.total ?? 0,
    page: query.page,
    page_size: data?.page_size ?? query.pageSize,
  };
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
