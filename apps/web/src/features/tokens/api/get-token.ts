import { TOKEN_KEY_PREFIX, type TokenView } from '@switchyard/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { tokenKeys } from './token-keys';

/** GET /api/token/{id} (the key comes as stored, without `sk-`). */
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

/** The key as clients use it (view key, copy, chat): `sk-` + the stored key the API sends. */
export const fullTokenKey = (token: Pick<TokenView, 'key'>): string => `${TOKEN_KEY_PREFIX}${token.key}`;
