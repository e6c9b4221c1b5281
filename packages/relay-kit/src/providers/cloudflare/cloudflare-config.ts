import type { ChannelRuntime } from '../../spec/channel-runtime.js';
import { UpstreamError } from '../../spec/upstream-error.js';
import type { OpenAIFamilyConfig, OpenAIUrlContext } from '../openai/openai-config.js';

function accountId(channel: ChannelRuntime): string {
  const id = channel.other?.trim() ?? '';
  if (id === '') {
    throw new UpstreamError({
      status: 0,
      code: 'channel:bad_endpoint',
      message: 'Cloudflare Workers AI channels need the account id in "other"',
      retryable: true,
      channelFault: true,
    });
  }
  return encodeURIComponent(id);
}

/**
 * Cloudflare Workers AI URLs: `{base}/client/v4/accounts/{other}/ai/v1/chat/completions` (and
 * `/ai/v1/embeddings`); the account id is the channel's `other`.
 */
export function buildCloudflareUrl({ channel, baseUrl, path }: OpenAIUrlContext): string {
  return `${baseUrl}/client/v4/accounts/${accountId(channel)}/ai${path}`;
}

/**
 * Cloudflare Workers AI (channel type 39): OpenAI-compatible chat and embeddings under the
 * account, bearer API token. Models come from `GET /client/v4/accounts/{id}/ai/models/search`
 * (`{result:[{name}]}`).
 */
export const CLOUDFLARE_CONFIG: OpenAIFamilyConfig = {
  channelType: 39,
  name: 'cloudflare',
  defaultBaseUrl: 'https://api.cloudflare.com',
  auth: { style: 'bearer' },
  paths: { 'openai-chat': '/v1/chat/completions', 'openai-embeddings': '/v1/embeddings' },
  streamOptions: 'strip',
  buildUrl: buildCloudflareUrl,
  models: {
    path: (channel, baseUrl) => `${baseUrl}/client/v4/accounts/${accountId(channel)}/ai/models/search`,
    format: 'cloudflare',
  },
};
