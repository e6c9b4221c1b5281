import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { settingsKeys } from './settings-keys';

/** POST /api/option/rest_model_ratio — puts the four price tables back to the built-in model catalogue. */
export function resetModelRatio(): Promise<unknown> {
  return apiClient.post('/api/option/rest_model_ratio');
}

export function useResetModelRatioMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: resetModelRatio,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: settingsKeys.options() }),
  });
}
