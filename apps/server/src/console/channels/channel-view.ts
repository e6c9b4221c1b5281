import type { ChannelListEntry as ChannelListEntryView, ChannelView } from '@switchyard/shared';
import type {
  ChannelListEntry,
  ChannelRow,
  ChannelSummary,
} from '../../db/repositories/channel-repository.ts';

/** The priority of an (unexpectedly) empty tag group. */
const PRIORITY_FLOOR = -999;

/** other_info is JSON ({status_reason, status_time}); shown parsed, or as stored when it is not JSON. */
function readOtherInfo(value: string | null): unknown {
  if (value === null || value === '') return null;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/**
 * The console's view of a channel. The key is a secret and is left out unless `withKey` is set,
 * which only the root's explicit `GET /api/channel/:id?with_key=true` does.
 */
export function toChannelView(channel: ChannelSummary | ChannelRow, withKey = false): ChannelView {
  const view: ChannelView = {
    id: channel.id,
    type: channel.type,
    name: channel.name,
    openai_organization: channel.openai_organization ?? '',
    test_model: channel.test_model ?? '',
    status: channel.status,
    weight: channel.weight,
    created_time: channel.created_time,
    test_time: channel.test_time,
    response_time: channel.response_time,
    base_url: channel.base_url,
    other: channel.other ?? '',
    balance: channel.balance,
    balance_updated_time: channel.balance_updated_time,
    models: channel.models ?? '',
    group: channel.group,
    used_quota: channel.used_quota,
    model_mapping: channel.model_mapping ?? '',
    status_code_mapping: channel.status_code_mapping,
    priority: channel.priority,
    auto_ban: channel.auto_ban,
    other_info: readOtherInfo(channel.other_info),
    tag: channel.tag ?? '',
    setting: channel.setting ?? '',
    param_override: channel.param_override ?? '',
    header_override: channel.header_override ?? '',
    max_input_tokens: channel.max_input_tokens,
  };
  if (withKey && 'key' in channel) view.key = channel.key;
  return view;
}

/** A tag-mode entry on the wire: a channel, or a tag group (see ChannelTagGroup). */
export function toListEntryView(entry: ChannelListEntry): ChannelListEntryView {
  if (entry.kind === 'channel') return toChannelView(entry.channel);
  return {
    tag_group: true,
    tag: entry.tag,
    channels: entry.channels.map((channel) => toChannelView(channel)),
    channel_count: entry.channels.length,
    enabled_count: entry.channels.filter((channel) => channel.status === 1).length,
    priority: entry.channels.reduce((top, channel) => Math.max(top, channel.priority), PRIORITY_FLOOR),
  };
}
