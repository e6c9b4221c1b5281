import type { TokenKeyView, TokenView } from '@switchyard/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { tokenKeys } from './token-keys';

/** GET /api/token/{id} (the key comes masked). */
export function getToken(id: number, signal?: AbortSignal): Promise<TokenView> {
  return apiClient.get<TokenView>(`/api/token/${id}`, signal ? { signal } : {});
}

export const tokenQueryOptions = (id: number) =>
  queryOptions({
    queryKey: tokenKeys.detail(id),
    queryFn: ({ signal }) => getToken(id, signal),
    staleTime: 0,
  });

export function useTokenQuery(id: number, enabled = true) {
  return useQuery({ ...tokenQueryOptions(id), enabled });
}

/** POST /api/token/{id}/key → the full `sk-` key (view key, copy, chat). */
export async function getTokenKey(id: number): Promise<string> {
  const view = await apiClient.post<TokenKeyView>(`/api/token/${id}/key`);
  return view.key;
}
