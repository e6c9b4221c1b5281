import type { ChannelView, KnownModel } from '@switchyard/shared';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { channelKeys } from './channel-keys';

export interface ChannelListQuery {
  /** From 1, as the table counts; the API's `p` counts from 0. */
  page: number;
  pageSize: number;
  keyword: string;
  model: string;
  group: string;
  idSort: boolean;
  tagMode: boolean;
}

/** One page of channels as the API answers it: a bare array (in tag mode, the channels of a page of tags). */
export interface ChannelPage {
  channels: ChannelView[];
  tagMode: boolean;
}

/**
 * GET /api/channel/?p&page_size&id_sort&tag_mode, or /api/channel/search with keyword, group, model.
 * Both answer one page as a bare array, without a total (see openEndedTotal).
 */
export async function getChannels(query: ChannelListQuery, signal?: AbortSignal): Promise<ChannelPage> {
  const filters = { keyword: query.keyword.trim(), model: query.model.trim(), group: query.group };
  const searching = filters.keyword !== '' || filters.model !== '' || filters.group !== '';
  const data = await apiClient.get<ChannelView[] | null>(
    searching ? '/api/channel/search' : '/api/channel/',
    {
      query: {
        ...(searching ? filters : {}),
        p: query.page - 1,
        page_size: query.pageSize,
        id_sort: query.idSort,
        tag_mode: query.tagMode,
      },
      ...(signal ? { signal } : {}),
    },
  );
  return { channels: data ?? [], tagMode: query.tagMode };
}

export const channelsQueryOptions = (query: ChannelListQuery) =>
  queryOptions({
    queryKey: channelKeys.list(query),
    queryFn: ({ signal }) => getChannels(query, signal),
    placeholderData: keepPreviousData,
  });

export function useChannelsQuery(query: ChannelListQuery) {
  return useQuery(channelsQueryOptions(query));
}

/** GET /api/channel/{id} (without the key). */
export function getChannel(id: number, signal?: AbortSignal): Promise<ChannelView> {
  return apiClient.get<ChannelView>(`/api/channel/${id}`, signal ? { signal } : {});
}

export function useChannelQuery(id: number, enabled = true) {
  return useQuery({
    queryKey: channelKeys.detail(id),
    queryFn: ({ signal }) => getChannel(id, signal),
    staleTime: 0,
    enabled,
  });
}

/** GET /api/group/ → group names. */
export function useChannelGroupsQuery() {
  return useQuery({
    queryKey: channelKeys.groups(),
    queryFn: ({ signal }) =>
      apiClient.get<string[] | null>('/api/group/', { signal }).then((groups) => groups ?? []),
    staleTime: 5 * 60_000,
  });
}

/** GET /api/channel/models → every known model id (for "fill all models"). */
export function getKnownModels(): Promise<string[]> {
  return apiClient
    .get<KnownModel[] | null>('/api/channel/models')
    .then((models) => (models ?? []).map((model) => model.id));
}
