import type { OpenAIFamilyConfig } from '../openai/openai-config.js';

/**
 * Ollama (channel type 4), through its OpenAI-compatible API: chat at `/v1/chat/completions`,
 * legacy completions at `/v1/completions`, embeddings at `/v1/embeddings`. A key is optional
 * (`Authorization: Bearer` only when the channel has one, for Ollama behind an authenticating
 * proxy). Ollama streams usage when asked. Models come from Ollama's own `GET /api/tags`.
 */
export const OLLAMA_CONFIG: OpenAIFamilyConfig = {
  channelType: 4,
  name: 'ollama',
  defaultBaseUrl: 'http://localhost:11434',
  auth: { style: 'bearer-optional' },
  paths: {
    'openai-chat': '/v1/chat/completions',
    'openai-completions': '/v1/completions',
    'openai-embeddings': '/v1/embeddings',
  },
  streamOptions: 'force',
  models: { path: '/api/tags', format: 'ollama' },
};
