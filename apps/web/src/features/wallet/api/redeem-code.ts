import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { walletKeys } from './wallet-keys';

/** POST /api/user/topup {key} → the quota added. */
export function redeemCode(key: string): Promise<number> {
  return apiClient.post<number>('/api/user/topup', { key });
}

/** Redeems a code; the balance is refetched afterwards. Errors are shown by the caller. */
export function useRedeemCodeMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: redeemCode,
    meta: { silentError: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: walletKeys.self() }),
  });
}
