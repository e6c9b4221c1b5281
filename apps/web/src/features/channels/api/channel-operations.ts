import { apiClient } from '../../../lib/api-client';

/**
 * GET /api/channel/test/{id}?model → the time in seconds. A failed test answers success:false
 * and throws its message (an ApiError), like every other call.
 */
export async function testChannel(id: number, model?: string): Promise<{ time: number }> {
  const data = await apiClient.get<{ time?: number } | null>(`/api/channel/test/${id}`, {
    query: { model: model || undefined },
  });
  return { time: Number(data?.time ?? 0) };
}

/** GET /api/channel/test — starts testing every channel in the background. */
export const testAllChannels = () => apiClient.get<unknown>('/api/channel/test');

/** GET /api/channel/update_balance/{id}/ → the new balance. */
export const updateChannelBalance = (id: number) =>
  apiClient
    .get<{ balance: number } | null>(`/api/channel/update_balance/${id}/`)
    .then((data) => data?.balance ?? 0);

/** GET /api/channel/update_balance — every enabled channel. */
export const updateAllBalances = () => apiClient.get<unknown>('/api/channel/update_balance');

/** DELETE /api/channel/disabled → count deleted. */
export const deleteDisabledChannels = () => apiClient.delete<number>('/api/channel/disabled');

/** POST /api/channel/batch {ids} → count deleted. */
export const deleteChannels = (ids: number[]) => apiClient.post<number>('/api/channel/batch', { ids });

/** POST /api/channel/fix → count repaired. */
export const fixChannels = () => apiClient.post<number>('/api/channel/fix');

/** POST /api/channel/batch/tag {ids, tag} → count. */
export const setChannelsTag = (ids: number[], tag: string) =>
  apiClient.post<number>('/api/channel/batch/tag', { ids, tag });

/** POST /api/channel/tag/enabled | disabled {tag}. */
export const setTagStatus = (tag: string, enabled: boolean) =>
  apiClient.post<number>(`/api/channel/tag/${enabled ? 'enabled' : 'disabled'}`, { tag });

/** The body of PUT /api/channel/tag: empty fields mean unchanged; new_tag '' dissolves the tag. */
export interface TagEditBody {
  tag: string;
  new_tag?: string;
  model_mapping?: string;
  groups?: string;
  models?: string;
  priority?: number;
  weight?: number;
}

/** PUT /api/channel/tag */
export const editTag = (body: TagEditBody) => apiClient.put<number>('/api/channel/tag', body);

/** POST /api/channel/copy/{id} → the copy's id. */
export const copyChannel = (id: number) =>
  apiClient.post<{ id: number }>(`/api/channel/copy/${id}`, undefined, {
    query: { suffix: '_复制', reset_balance: 'true' },
  });

/** GET /api/channel/fetch_models/{id} (saved channel) → model names from the upstream. */
export const fetchModelsOfChannel = (id: number) => apiClient.get<unknown>(`/api/channel/fetch_models/${id}`);

/** POST /api/channel/fetch_models {base_url, type, key} (unsaved channel) → model names. */
export const fetchModelsWithKey = (body: { base_url: string; type: number; key: string }) =>
  apiClient.post<unknown>('/api/channel/fetch_models', body);
