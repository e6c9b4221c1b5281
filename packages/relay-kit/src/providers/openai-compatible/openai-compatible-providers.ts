import type { OpenAIFamilyConfig } from '../openai/openai-config.js';
import { defineOpenAICompatibleProvider } from './openai-compatible-config.js';

/**
 * DeepSeek (channel type 43). Chat at `/v1/chat/completions`; legacy completions go to the FIM
 * beta endpoint `/beta/completions`. Accepts `stream_options.include_usage`. Usage carries
 * `prompt_cache_hit_tokens`, read as cache reads by the OpenAI usage converter. Reasoner models
 * stream `reasoning_content`.
 * https://api-docs.deepseek.com/api/create-chat-completion
 */
export const DEEPSEEK_CONFIG: OpenAIFamilyConfig = defineOpenAICompatibleProvider({
  channelType: 43,
  name: 'deepseek',
  defaultBaseUrl: 'https://api.deepseek.com',
  paths: {
    'openai-chat': '/v1/chat/completions',
    'openai-completions': '/beta/completions',
  },
  streamOptions: 'force',
});
