import type { OpenAIFamilyConfig, OpenAIUrlContext } from '../openai/openai-config.js';
import { CLOUDFLARE_AI_GATEWAY } from '../openai/openai-request-target.js';

/** The API version used when neither the request nor the channel names one. */
export const AZURE_DEFAULT_API_VERSION = '2024-12-01-preview';

/**
 * Azure OpenAI URLs (reference §3.10):
 * `{base}/openai/deployments/{model without dots}/{task}?api-version={v}` where the task is the
 * OpenAI path without `/v1/` (`chat/completions`, `embeddings`, `images/generations`,
 * `audio/transcriptions`...) and `v` is the client's `api-version` query, else the channel's
 * `other`, else {@link AZURE_DEFAULT_API_VERSION}. Responses use the v1 API:
 * `{base}/openai/v1/responses?api-version=preview`. A Cloudflare AI Gateway base drops
 * `/openai/deployments`.
 */
export function buildAzureUrl({ call, channel, baseUrl, path, model }: OpenAIUrlContext): string {
  const task = path.replace(/^\/v1\//, '');
  if (call.protocol === 'openai-responses') return `${baseUrl}/openai/v1/responses?api-version=preview`;
  const version = call.query?.get('api-version') || channel.other?.trim() || AZURE_DEFAULT_API_VERSION;
  const deployment = encodeURIComponent(model.replaceAll('.', ''));
  const prefix = baseUrl.startsWith(CLOUDFLARE_AI_GATEWAY) ? baseUrl : `${baseUrl}/openai/deployments`;
  return `${prefix}/${deployment}/${task}?api-version=${encodeURIComponent(version)}`;
}

/**
 * Azure OpenAI (channel type 3): the channel's resource endpoint is required, the key goes in
 * `api-key`, `other` is the API version. Stream usage is forced like OpenAI's; OpenAI's
 * reasoning-model rules apply to o-series deployments.
 */
export const AZURE_CONFIG: OpenAIFamilyConfig = {
  channelType: 3,
  name: 'azure',
  defaultBaseUrl: '',
  requiresBaseUrl: true,
  auth: { style: 'header', header: 'api-key' },
  paths: {
    'openai-chat': '/v1/chat/completions',
    'openai-completions': '/v1/completions',
    'openai-embeddings': '/v1/embeddings',
    'openai-responses': '/v1/responses',
    'openai-images': '/v1/images/generations',
    'openai-audio-speech': '/v1/audio/speech',
    'openai-audio-transcription': '/v1/audio/transcriptions',
  },
  streamOptions: 'force',
  reasoningModelRules: true,
  buildUrl: buildAzureUrl,
};
