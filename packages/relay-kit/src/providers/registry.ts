import type { ProviderAdapter } from '../spec/provider-adapter.js';
// Claude upstreams (Anthropic, AWS Bedrock).
import { anthropicAdapter } from './anthropic/anthropic-adapter.js';
// OpenAI family (Azure, Ollama, Custom, Cloudflare, Zhipu v4 and the OpenAI-compatible vendors).
import { AZURE_CONFIG } from './azure/azure-config.js';
import { bedrockAdapter } from './bedrock/bedrock-adapter.js';
import { CLOUDFLARE_CONFIG } from './cloudflare/cloudflare-config.js';
import { CUSTOM_CONFIG } from './custom/custom-config.js';
// Google upstreams (Gemini API, Vertex AI).
import { geminiAdapter } from './gemini/gemini-adapter.js';
import { OLLAMA_CONFIG } from './ollama/ollama-config.js';
import { createOpenAIFamilyAdapter, openAIAdapter } from './openai/openai-adapter.js';
import * as vendors from './openai-compatible/openai-compatible-providers.js';
import { DEEPSEEK_CONFIG } from './openai-compatible/openai-compatible-providers.js';
import { vertexAdapter } from './vertex/vertex-adapter.js';
import { ZHIPU_V4_CONFIG } from './zhipu/zhipu-config.js';

/**
 * The only registration point: channel type → adapter factory. Adding a provider is one line
 * here (plus its folder or its `openai-compatible` entry, and its row in the shared channel types
 * table used by the console). Adapters are stateless and cheap, so every factory runs once when
 * this module loads and the instances are shared; nothing here changes afterwards.
 */
const ADAPTER_FACTORIES: ReadonlyArray<readonly [channelType: number, create: () => ProviderAdapter]> = [
  [1, () => openAIAdapter],
  [43, () => createOpenAIFamilyAdapter(DEEPSEEK_CONFIG)],
  // Claude upstreams.
  [14, () => anthropicAdapter],
  [33, () => bedrockAdapter],
  // OpenAI family.
  [3, () => createOpenAIFamilyAdapter(AZURE_CONFIG)],
  [4, () => createOpenAIFamilyAdapter(OLLAMA_CONFIG)],
  [6, () => createOpenAIFamilyAdapter(vendors.OPENAIMAX_CONFIG)],
  [7, () => createOpenAIFamilyAdapter(vendors.OHMYGPT_CONFIG)],
  [8, () => createOpenAIFamilyAdapter(CUSTOM_CONFIG)],
  [9, () => createOpenAIFamilyAdapter(vendors.AILS_CONFIG)],
  [12, () => createOpenAIFamilyAdapter(vendors.API2GPT_CONFIG)],
  [13, () => createOpenAIFamilyAdapter(vendors.AIGC2D_CONFIG)],
  [19, () => createOpenAIFamilyAdapter(vendors.AI360_CONFIG)],
  [20, () => createOpenAIFamilyAdapter(vendors.OPENROUTER_CONFIG)],
  [22, () => createOpenAIFamilyAdapter(vendors.FASTGPT_CONFIG)],
  [25, () => createOpenAIFamilyAdapter(vendors.MOONSHOT_CONFIG)],
  [26, () => createOpenAIFamilyAdapter(ZHIPU_V4_CONFIG)],
  [27, () => createOpenAIFamilyAdapter(vendors.PERPLEXITY_CONFIG)],
  [31, () => createOpenAIFamilyAdapter(vendors.LINGYI_CONFIG)],
  [34, () => createOpenAIFamilyAdapter(vendors.COHERE_CONFIG)],
  [35, () => createOpenAIFamilyAdapter(vendors.MINIMAX_CONFIG)],
  [38, () => createOpenAIFamilyAdapter(vendors.JINA_CONFIG)],
  [39, () => createOpenAIFamilyAdapter(CLOUDFLARE_CONFIG)],
  [40, () => createOpenAIFamilyAdapter(vendors.SILICONFLOW_CONFIG)],
  [42, () => createOpenAIFamilyAdapter(vendors.MISTRAL_CONFIG)],
  [44, () => createOpenAIFamilyAdapter(vendors.MOKA_CONFIG)],
  [45, () => createOpenAIFamilyAdapter(vendors.VOLCENGINE_CONFIG)],
  [46, () => createOpenAIFamilyAdapter(vendors.QIANFAN_V2_CONFIG)],
  [47, () => createOpenAIFamilyAdapter(vendors.XINFERENCE_CONFIG)],
  [48, () => createOpenAIFamilyAdapter(vendors.XAI_CONFIG)],
  [58, () => createOpenAIFamilyAdapter(vendors.GROQ_CONFIG)],
  // Google upstreams.
  [24, () => geminiAdapter],
  [41, () => vertexAdapter],
];

const ADAPTERS: ReadonlyMap<number, ProviderAdapter> = new Map(
  ADAPTER_FACTORIES.map(([channelType, create]) => {
    const adapter = create();
    if (adapter.channelType !== channelType) {
      throw new Error(
        `adapter ${adapter.name} is registered as type ${channelType} but serves ${adapter.channelType}`,
      );
    }
    return [channelType, adapter] as const;
  }),
);

/**
 * The adapter for a channel type, or `undefined` when the type is not supported yet (the server
 * should refuse to route to such channels rather than guess a wire format).
 */
export function getProviderAdapter(channelType: number): ProviderAdapter | undefined {
  return ADAPTERS.get(channelType);
}

/** True when {@link getProviderAdapter} has an adapter for the type. */
export function isSupportedChannelType(channelType: number): boolean {
  return ADAPTERS.has(channelType);
}

/** The channel types with a registered adapter, ascending. */
export function listSupportedChannelTypes(): number[] {
  return [...ADAPTERS.keys()].sort((a, b) => a - b);
}
