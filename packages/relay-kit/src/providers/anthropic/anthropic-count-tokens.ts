import { type ChannelRuntime, mapChannelModel } from '../../spec/channel-runtime.js';
import { DEFAULT_PROVIDER_SETTINGS, type ProviderSettings } from '../../spec/provider-settings.js';
import type { RelayCall } from '../../spec/relay-call.js';
import type { UpstreamRequest } from '../../spec/upstream-request.js';
import { joinUrl } from '../openai/convert-to-openai-request.js';
import { ANTHROPIC_DEFAULT_BASE_URL, buildAnthropicHeaders } from './convert-to-anthropic-request.js';

/**
 * `POST {base}/v1/messages/count_tokens` for an Anthropic Messages call: the client's bytes as
 * they came (Anthropic refuses fields count_tokens does not take, so none of the Messages rules
 * that add `max_tokens` apply), the model renamed when the channel maps it; the same headers as
 * a Messages call (`anthropic-version`, the client's `anthropic-beta`, the channel's overrides).
 */
export function buildAnthropicCountTokensRequest(
  call: RelayCall,
  channel: ChannelRuntime,
  settings: ProviderSettings = DEFAULT_PROVIDER_SETTINGS,
): UpstreamRequest {
  const upstreamModel = mapChannelModel(channel, call.model, call.upstreamModel);
  const body =
    upstreamModel !== call.model || call.rawBody === undefined
      ? JSON.stringify({ ...call.body, model: upstreamModel })
      : call.rawBody;
  return {
    url: joinUrl(channel.baseUrl || ANTHROPIC_DEFAULT_BASE_URL, '/v1/messages/count_tokens'),
    method: 'POST',
    headers: buildAnthropicHeaders(call, channel, settings, upstreamModel),
    body,
    upstreamModel,
    streamUsageForced: false,
    warnings: [],
  };
}
