import type { RedemptionCreateBody, RedemptionUpdateBody, RedemptionView } from '@switchyard/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { redemptionKeys } from './redemption-keys';

/** POST /api/redemption/ {name, quota, count} → the generated codes. */
export function createRedemptions(body: RedemptionCreateBody): Promise<string[]> {
  return apiClient.post<string[]>('/api/redemption/', body);
}

/** PUT /api/redemption/ {id, name, quota} (only while unused). */
export function updateRedemption(body: RedemptionUpdateBody): Promise<RedemptionView> {
  return apiClient.put<RedemptionView>('/api/redemption/', body);
}

/** PUT /api/redemption/?status_only=true {id, status}. */
export function setRedemptionStatus(id: number, status: number): Promise<RedemptionView> {
  return apiClient.put<RedemptionView>(
    '/api/redemption/',
    { id, status },
    { query: { status_only: 'true' } },
  );
}

/** DELETE /api/redemption/{id}/ */
export function deleteRedemption(id: number): Promise<unknown> {
  return apiClient.delete(`/api/redemption/${id}/`);
}

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: redemptionKeys.all });
}

export function useCreateRedemptionsMutation() {
  const onSuccess = useInvalidate();
  return useMutation({ mutationFn: createRedemptions, onSuccess });
}

export function useUpdateRedemptionMutation() {
  const onSuccess = useInvalidate();
  return useMutation({ mutationFn: updateRedemption, onSuccess });
}

export function useRedemptionStatusMutation() {
  const onSuccess = useInvalidate();
  return useMutation({
    mutationFn: ({ id, status }: { id: number; status: number }) => setRedemptionStatus(id, status),
    onSuccess,
  });
}

export function useDeleteRedemptionMutation() {
  const onSuccess = useInvalidate();
  return useMutation({ mutationFn: deleteRedemption, onSuccess });
}
