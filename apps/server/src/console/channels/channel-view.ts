import type { ChannelView } from '@switchyard/shared';
import type { ChannelRow, ChannelSummary } from '../../db/repositories/channel-repository.ts';

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
    other_info: channel.other_info ?? '',
    tag: channel.tag ?? '',
    setting: channel.setting ?? '',
    param_override: channel.param_override ?? '',
    header_override: channel.header_override ?? '',
    max_input_tokens: channel.max_input_tokens,
  };
  if (withKey && 'key' in channel) view.key = channel.key;
  return view;
}
