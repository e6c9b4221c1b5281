import type { TokenCreateBody, TokenCreated, TokenUpdateBody, TokenView } from '@switchyard/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { tokenKeys } from './token-keys';

/** POST /api/token/ → the created tokens (with full keys). */
export function createToken(body: TokenCreateBody): Promise<TokenCreated[]> {
  return apiClient.post<TokenCreated[]>('/api/token/', body);
}

/** PUT /api/token/ with id and the fields to change. */
export function updateToken(body: TokenUpdateBody): Promise<TokenView> {
  return apiClient.put<TokenView>('/api/token/', body);
}

/** PUT /api/token/?status_only=true {id, status}. */
export function setTokenStatus(id: number, status: number): Promise<TokenView> {
  return apiClient.put<TokenView>('/api/token/', { id, status }, { query: { status_only: 'true' } });
}

/** DELETE /api/token/{id}/ */
export function deleteToken(id: number): Promise<unknown> {
  return apiClient.delete(`/api/token/${id}/`);
}

function useInvalidateTokens() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: tokenKeys.all });
}

export function useCreateTokenMutation() {
  const invalidate = useInvalidateTokens();
  return useMutation({ mutationFn: createToken, onSuccess: invalidate });
}

export function useUpdateTokenMutation() {
  const invalidate = useInvalidateTokens();
  return useMutation({ mutationFn: updateToken, onSuccess: invalidate });
}

export function useTokenStatusMutation() {
  const invalidate = useInvalidateTokens();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: number }) => setTokenStatus(id, status),
    onSuccess: invalidate,
  });
}

export function useDeleteTokenMutation() {
  const invalidate = useInvalidateTokens();
  return useMutation({ mutationFn: deleteToken, onSuccess: invalidate });
}
