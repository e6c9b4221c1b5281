import { OPENAI_PATHS, type OpenAIFamilyConfig, type OpenAIUrlContext } from '../openai/openai-config.js';
import { joinUrl } from '../openai/openai-request-target.js';
import { defineOpenAICompatibleProvider as define } from './openai-compatible-config.js';

/**
 * DeepSeek (channel type 43). Chat at `/v1/chat/completions`; legacy completions go to the FIM
 * beta endpoint `/beta/completions`. Accepts `stream_options.include_usage`. Usage carries
 * `prompt_cache_hit_tokens`, read as cache reads by the OpenAI usage converter. Reasoner models
 * stream `reasoning_content`.
 * https://api-docs.deepseek.com/api/create-chat-completion
 */
export const DEEPSEEK_CONFIG: OpenAIFamilyConfig = define({
  channelType: 43,
  name: 'deepseek',
  defaultBaseUrl: 'https://api.deepseek.com',
  paths: {
    'openai-chat': '/v1/chat/completions',
    'openai-completions': '/beta/completions',
  },
  streamOptions: 'force',
});

/** Switchyard's attribution headers for OpenRouter's app rankings (override per channel). */
export const OPENROUTER_HEADERS = { 'HTTP-Referer': 'https://switchyard.local', 'X-Title': 'Switchyard' };

/**
 * Resellers that copy OpenAI's whole API (the reference relays any path to them): every OpenAI
 * protocol at OpenAI's paths, stream usage stripped (not every reseller accepts it).
 */
const reseller = (channelType: number, name: string, defaultBaseUrl: string) =>
  define({ channelType, name, defaultBaseUrl, paths: OPENAI_PATHS });

export const OPENAIMAX_CONFIG = reseller(6, 'openaimax', 'https://api.openaimax.com');
export const OHMYGPT_CONFIG = reseller(7, 'ohmygpt', 'https://api.ohmygpt.com');
export const AILS_CONFIG = reseller(9, 'ails', 'https://api.caipacity.com');
export const API2GPT_CONFIG = reseller(12, 'api2gpt', 'https://api.api2gpt.com');
export const AIGC2D_CONFIG = reseller(13, 'aigc2d', 'https://api.aigc2d.com');
/** FastGPT (22): its OpenAPI base already ends in `/api/openapi`. */
export const FASTGPT_CONFIG = define({
  channelType: 22,
  name: 'fastgpt',
  defaultBaseUrl: 'https://fastgpt.run/api/openapi',
  models: null,
});

/** 360 智脑 (19): chat, embeddings and images at OpenAI's paths. */
export const AI360_CONFIG = define({
  channelType: 19,
  name: '360',
  defaultBaseUrl: 'https://api.360.cn',
  paths: {
    'openai-chat': '/v1/chat/completions',
    'openai-embeddings': '/v1/embeddings',
    'openai-images': '/v1/images/generations',
  },
});

/** OpenRouter (20): OpenAI API under `/api`, attribution headers, accepts stream usage. */
export const OPENROUTER_CONFIG = define({
  channelType: 20,
  name: 'openrouter',
  defaultBaseUrl: 'https://openrouter.ai/api',
  paths: { 'openai-chat': '/v1/chat/completions', 'openai-completions': '/v1/completions' },
  streamOptions: 'force',
  extraHeaders: OPENROUTER_HEADERS,
});

/** Moonshot (25): reports stream usage inside the choice, so `stream_options` is not needed. */
export const MOONSHOT_CONFIG = define({
  channelType: 25,
  name: 'moonshot',
  defaultBaseUrl: 'https://api.moonshot.cn',
});

/** Perplexity (27): `{base}/chat/completions` without `/v1`; no model list endpoint. */
export const PERPLEXITY_CONFIG = define({
  channelType: 27,
  name: 'perplexity',
  defaultBaseUrl: 'https://api.perplexity.ai',
  paths: { 'openai-chat': '/chat/completions' },
  models: null,
});

/** 零一万物 01.ai (31). */
export const LINGYI_CONFIG = define({
  channelType: 31,
  name: 'lingyiwanwu',
  defaultBaseUrl: 'https://api.lingyiwanwu.com',
});

/**
 * Cohere (34): chat and embeddings through its OpenAI compatibility API, rerank at `/v1/rerank`
 * (Cohere's native shape equals the Jina request shape). Models: `GET /v1/models`
 * (`{models:[{name}]}`).
 */
export const COHERE_CONFIG = define({
  channelType: 34,
  name: 'cohere',
  defaultBaseUrl: 'https://api.cohere.ai',
  paths: {
    'openai-chat': '/compatibility/v1/chat/completions',
    'openai-embeddings': '/compatibility/v1/embeddings',
    rerank: '/v1/rerank',
  },
});

/** MiniMax (35): chat at `/v1/text/chatcompletion_v2`. */
export const MINIMAX_CONFIG = define({
  channelType: 35,
  name: 'minimax',
  defaultBaseUrl: 'https://api.minimax.chat',
  paths: { 'openai-chat': '/v1/text/chatcompletion_v2' },
  models: null,
});

/** Jina (38): rerank and embeddings only. */
export const JINA_CONFIG = define({
  channelType: 38,
  name: 'jina',
  defaultBaseUrl: 'https://api.jina.ai',
  paths: { rerank: '/v1/rerank', 'openai-embeddings': '/v1/embeddings' },
});

/** SiliconFlow (40): chat, completions, embeddings, rerank, images and audio. */
export const SILICONFLOW_CONFIG = define({
  channelType: 40,
  name: 'siliconflow',
  defaultBaseUrl: 'https://api.siliconflow.cn',
  paths: {
    'openai-chat': '/v1/chat/completions',
    'openai-completions': '/v1/completions',
    'openai-embeddings': '/v1/embeddings',
    rerank: '/v1/rerank',
    'openai-images': '/v1/images/generations',
    'openai-audio-speech': '/v1/audio/speech',
    'openai-audio-transcription': '/v1/audio/transcriptions',
  },
  streamOptions: 'force',
});

/**
 * Mistral (42): chat and embeddings; parameters Mistral rejects are removed and `seed` is sent
 * as `random_seed`.
 */
export const MISTRAL_CONFIG = define({
  channelType: 42,
  name: 'mistral',
  defaultBaseUrl: 'https://api.mistral.ai',
  paths: { 'openai-chat': '/v1/chat/completions', 'openai-embeddings': '/v1/embeddings' },
  dropParameters: [
    'user',
    'logit_bias',
    'logprobs',
    'top_logprobs',
    'service_tier',
    'store',
    'metadata',
    'functions',
    'function_call',
    'reasoning_effort',
    'modalities',
    'audio',
  ],
  renameParameters: { seed: 'random_seed' },
});

/** MokaAI M3E (44): embeddings at `{base}/embeddings`. */
export const MOKA_CONFIG = define({
  channelType: 44,
  name: 'moka',
  defaultBaseUrl: 'https://api.moka.ai',
  paths: { 'openai-embeddings': '/embeddings' },
  models: null,
});

/** VolcEngine Ark: `bot-…` models are agents served at `/api/v3/bots/chat/completions`. */
export function buildVolcEngineUrl({ call, baseUrl, path, model }: OpenAIUrlContext): string {
  if (call.protocol === 'openai-chat' && model.startsWith('bot')) {
    return joinUrl(baseUrl, '/api/v3/bots/chat/completions');
  }
  return joinUrl(baseUrl, path);
}

/** VolcEngine Ark / 豆包 (45). */
export const VOLCENGINE_CONFIG = define({
  channelType: 45,
  name: 'volcengine',
  defaultBaseUrl: 'https://ark.cn-beijing.volces.com',
  paths: {
    'openai-chat': '/api/v3/chat/completions',
    'openai-embeddings': '/api/v3/embeddings',
    'openai-images': '/api/v3/images/generations',
  },
  streamOptions: 'force',
  buildUrl: buildVolcEngineUrl,
  models: { path: '/api/v3/models' },
});

/** Baidu Qianfan V2 (46): `/v2/chat/completions`, bearer key. */
export const QIANFAN_V2_CONFIG = define({
  channelType: 46,
  name: 'baidu_v2',
  defaultBaseUrl: 'https://qianfan.baidubce.com',
  paths: { 'openai-chat': '/v2/chat/completions', 'openai-embeddings': '/v2/embeddings' },
  streamOptions: 'force',
  models: { path: '/v2/models' },
});

/** Xinference (47): self-hosted, base URL required; rerank usage is not trusted (estimated). */
export const XINFERENCE_CONFIG = define({
  channelType: 47,
  name: 'xinference',
  defaultBaseUrl: '',
  paths: {
    'openai-chat': '/v1/chat/completions',
    'openai-completions': '/v1/completions',
    'openai-embeddings': '/v1/embeddings',
    rerank: '/v1/rerank',
  },
  streamOptions: 'force',
  ignoreRerankUsage: true,
});

/** xAI (48): `grok-3-mini*` gets the reasoning-model rules (max_tokens move, effort suffix). */
export const XAI_CONFIG = define({
  channelType: 48,
  name: 'xai',
  defaultBaseUrl: 'https://api.x.ai',
  paths: { 'openai-chat': '/v1/chat/completions', 'openai-images': '/v1/images/generations' },
  streamOptions: 'force',
  reasoningModelPattern: /^grok-3-mini/,
});

/**
 * Groq (58, a Switchyard id: the reference table has none): OpenAI API under `/openai`, chat
 * and audio (Whisper transcriptions, speech).
 */
export const GROQ_CONFIG = define({
  channelType: 58,
  name: 'groq',
  defaultBaseUrl: 'https://api.groq.com/openai',
  paths: {
    'openai-chat': '/v1/chat/completions',
    'openai-audio-transcription': '/v1/audio/transcriptions',
    'openai-audio-speech': '/v1/audio/speech',
  },
  streamOptions: 'force',
});
