import type { OpenAIFamilyConfig, OpenAIUrlContext } from '../openai/openai-config.js';
import { OPENAI_PATHS } from '../openai/openai-config.js';

/**
 * Custom channel URLs: the channel's base URL is the **full** upstream URL, with `{model}`
 * replaced by the upstream model name (URL-encoded); the client's path is not appended
 * (reference §3.10).
 */
export function buildCustomUrl({ baseUrl, model }: OpenAIUrlContext): string {
  return baseUrl.replaceAll('{model}', encodeURIComponent(model));
}

/**
 * Custom (channel type 8): any OpenAI-format endpoint at a full URL template. Every OpenAI
 * protocol is accepted (the URL decides what the upstream does); bearer key; `stream_options`
 * is forwarded as the client sent it. No model list (the URL is a single endpoint).
 */
export const CUSTOM_CONFIG: OpenAIFamilyConfig = {
  channelType: 8,
  name: 'custom',
  defaultBaseUrl: '',
  requiresBaseUrl: true,
  auth: { style: 'bearer' },
  paths: OPENAI_PATHS,
  streamOptions: 'keep',
  buildUrl: buildCustomUrl,
};
