import type { ChannelListQuery } from './get-channels';

/** Query keys of the channel feature; mutations invalidate through these. */
export const channelKeys = {
  all: ['channels'] as const,
  lists: () => [...channelKeys.all, 'list'] as const,
  list: (query: ChannelListQuery) => [...channelKeys.lists(), query] as const,
  details: () => [...channelKeys.all, 'detail'] as const,
  detail: (id: number) => [...channelKeys.details(), id] as const,
  groups: () => [...channelKeys.all, 'groups'] as const,
  knownModels: () => [...channelKeys.all, 'known-models'] as const,
};
