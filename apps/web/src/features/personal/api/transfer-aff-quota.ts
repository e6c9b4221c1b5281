import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { personalKeys } from './personal-keys';

/** POST /api/user/aff_transfer {quota} — moves invitation earnings into the balance (≥ one unit). */
export function transferAffQuota(quota: number): Promise<unknown> {
  return apiClient.post('/api/user/aff_transfer', { quota });
}

export function useTransferAffQuotaMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: transferAffQuota,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: personalKeys.self() }),
  });
}
