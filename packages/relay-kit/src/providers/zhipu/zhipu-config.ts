import type { OpenAIFamilyConfig } from '../openai/openai-config.js';
import { defineOpenAICompatibleProvider } from '../openai-compatible/openai-compatible-config.js';
import { createZhipuToken } from './zhipu-token.js';

/**
 * Zhipu GLM v4 (channel type 26): `/api/paas/v4/chat/completions`, `/api/paas/v4/embeddings`,
 * `/api/paas/v4/images/generations`; `Authorization: Bearer <JWT from id.secret>` (or the key
 * itself when it is not of that form). Accepts `stream_options.include_usage`.
 */
export const ZHIPU_V4_CONFIG: OpenAIFamilyConfig = defineOpenAICompatibleProvider({
  channelType: 26,
  name: 'zhipu_v4',
  defaultBaseUrl: 'https://open.bigmodel.cn',
  auth: {
    style: 'custom',
    headers: (channel) => ({ authorization: `Bearer ${createZhipuToken(channel.key)}` }),
  },
  paths: {
    'openai-chat': '/api/paas/v4/chat/completions',
    'openai-embeddings': '/api/paas/v4/embeddings',
    'openai-images': '/api/paas/v4/images/generations',
  },
  streamOptions: 'force',
  models: { path: '/api/paas/v4/models' },
});
