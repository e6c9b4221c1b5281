import type { ChannelCreateBody, ChannelUpdateBody, ChannelView } from '@switchyard/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { channelKeys } from './channel-keys';

/** POST /api/channel/ (models and group as comma strings; `mode: 'batch'` for one key per line). */
export function createChannel(body: ChannelCreateBody): Promise<ChannelView[]> {
  return apiClient.post<ChannelView[]>('/api/channel/', body);
}

/** PUT /api/channel/ with id plus the changed fields; the reply carries the new status. */
export function updateChannel(body: ChannelUpdateBody): Promise<ChannelView> {
  return apiClient.put<ChannelView>('/api/channel/', body);
}

/** DELETE /api/channel/{id}/ */
export function deleteChannel(id: number): Promise<unknown> {
  return apiClient.delete(`/api/channel/${id}/`);
}

/** Invalidates every channel query (lists and details). */
export function useInvalidateChannels() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: channelKeys.all });
}

export function useCreateChannelMutation() {
  const onSuccess = useInvalidateChannels();
  return useMutation({ mutationFn: createChannel, onSuccess });
}

export function useUpdateChannelMutation() {
  const onSuccess = useInvalidateChannels();
  return useMutation({ mutationFn: updateChannel, onSuccess });
}

export function useDeleteChannelMutation() {
  const onSuccess = useInvalidateChannels();
  return useMutation({ mutationFn: deleteChannel, onSuccess });
}
