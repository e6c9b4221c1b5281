/**
 * The built-in model catalogue: the one place the default prices live. `default-ratios.ts`
 * turns it into the ModelRatio / CompletionRatio / CacheRatio / ModelPrice option tables (the
 * reference gateway's format), which seed the options and which the console's "reset" restores.
 *
 * To update: change the USD prices below (per 1M tokens, standard tier, prompts up to the
 * provider's first context tier, no batch discount) and `CATALOGUE_CHECKED`. The unit test
 * checks every listed model is priced and the derived ratios reproduce these prices.
 */

/** When the prices below were compared with the providers' public price pages. */
export const CATALOGUE_CHECKED =
  '2025-11 (the OpenAI, Anthropic, Google AI, DeepSeek, Alibaba Cloud Model Studio, xAI, Moonshot, Z.ai, Mistral and Cohere price pages as known at that date); Anthropic models released since: the price table Anthropic ships in Claude Code 2.1.332';

/** A token-priced model, in USD per 1M tokens. */
export interface ModelListing {
  input: number;
  output: number;
  /** Cache hits (cached input tokens), where the provider publishes a price. */
  cacheRead?: number;
  /** Cache writes, where the provider charges them apart (Anthropic: 1.25 × input, 5-minute cache). */
  cacheWrite?: number;
}

const openai = (input: number, output: number, cacheRead?: number): ModelListing =>
  cacheRead === undefined ? { input, output } : { input, output, cacheRead };
/** Anthropic: cache hits at 0.1 × input unless listed, 5-minute cache writes at 1.25 × input. */
const claude = (input: number, output: number, cacheRead = input / 10): ModelListing => ({
  input,
  output,
  cacheRead,
  cacheWrite: input * 1.25,
});

/** Current models of the providers the channel types list, priced from their public pages. */
export const MODEL_PRICES_USD: Readonly<Record<string, ModelListing>> = {
  // OpenAI
  'gpt-5': openai(1.25, 10, 0.125),
  'gpt-5-2025-08-07': openai(1.25, 10, 0.125),
  'gpt-5-chat-latest': openai(1.25, 10, 0.125),
  'gpt-5-codex': openai(1.25, 10, 0.125),
  'gpt-5-mini': openai(0.25, 2, 0.025),
  'gpt-5-mini-2025-08-07': openai(0.25, 2, 0.025),
  'gpt-5-nano': openai(0.05, 0.4, 0.005),
  'gpt-5-nano-2025-08-07': openai(0.05, 0.4, 0.005),
  'gpt-5-pro': openai(15, 120),
  'gpt-5.1': openai(1.25, 10, 0.125),
  'gpt-5.1-chat-latest': openai(1.25, 10, 0.125),
  'gpt-5.1-codex': openai(1.25, 10, 0.125),
  'gpt-5.1-codex-mini': openai(0.25, 2, 0.025),
  'codex-mini-latest': openai(1.5, 6, 0.375),
  'gpt-4.1': openai(2, 8, 0.5),
  'gpt-4.1-2025-04-14': openai(2, 8, 0.5),
  'gpt-4.1-mini': openai(0.4, 1.6, 0.1),
  'gpt-4.1-mini-2025-04-14': openai(0.4, 1.6, 0.1),
  'gpt-4.1-nano': openai(0.1, 0.4, 0.025),
  'gpt-4.1-nano-2025-04-14': openai(0.1, 0.4, 0.025),
  'gpt-4o': openai(2.5, 10, 1.25),
  'gpt-4o-2024-08-06': openai(2.5, 10, 1.25),
  'gpt-4o-2024-11-20': openai(2.5, 10, 1.25),
  'gpt-4o-mini': openai(0.15, 0.6, 0.075),
  'gpt-4o-mini-2024-07-18': openai(0.15, 0.6, 0.075),
  o1: openai(15, 60, 7.5),
  'o1-2024-12-17': openai(15, 60, 7.5),
  'o1-pro': openai(150, 600),
  'o1-mini': openai(1.1, 4.4, 0.55),
  o3: openai(2, 8, 0.5),
  'o3-2025-04-16': openai(2, 8, 0.5),
  'o3-pro': openai(20, 80),
  'o3-mini': openai(1.1, 4.4, 0.55),
  'o3-mini-2025-01-31': openai(1.1, 4.4, 0.55),
  'o4-mini': openai(1.1, 4.4, 0.275),
  'o4-mini-2025-04-16': openai(1.1, 4.4, 0.275),
  'text-embedding-3-small': openai(0.02, 0.02),
  'text-embedding-3-large': openai(0.13, 0.13),
  'text-embedding-ada-002': openai(0.1, 0.1),

  // Anthropic (dated ids and their aliases; ids without a date are the model's only id)
  'claude-opus-5-5': claude(4, 20, 0.2),
  'claude-opus-5': claude(5, 25),
  'claude-opus-4-8': claude(5, 25),
  'claude-opus-4-7': claude(5, 25),
  'claude-opus-4-6': claude(5, 25),
  'claude-sonnet-5-5': claude(2, 10, 0.1),
  'claude-sonnet-5': claude(2, 10),
  'claude-sonnet-4-6': claude(3, 15),
  'claude-haiku-5-5': claude(0.1, 0.5),
  'claude-fable-5-2': claude(8, 40, 0.2),
  'claude-fable-5-1': claude(10, 50, 0.25),
  'claude-fable-5': claude(10, 50),
  'claude-mythos-5-2': claude(8, 40, 0.2),
  'claude-mythos-5-1': claude(10, 50, 0.25),
  'claude-mythos-5': claude(10, 50),
  'claude-opus-4-5-20251101': claude(5, 25),
  'claude-opus-4-5': claude(5, 25),
  'claude-opus-4-1-20250805': claude(15, 75),
  'claude-opus-4-1': claude(15, 75),
  'claude-opus-4-20250514': claude(15, 75),
  'claude-opus-4-0': claude(15, 75),
  'claude-opus-4': claude(15, 75),
  'claude-sonnet-4-5-20250929': claude(3, 15),
  'claude-sonnet-4-5': claude(3, 15),
  'claude-sonnet-4-20250514': claude(3, 15),
  'claude-sonnet-4-0': claude(3, 15),
  'claude-sonnet-4': claude(3, 15),
  'claude-haiku-4-5-20251001': claude(1, 5),
  'claude-haiku-4-5': claude(1, 5),
  'claude-3-7-sonnet-20250219': claude(3, 15),
  'claude-3-7-sonnet-20250219-thinking': claude(3, 15),
  'claude-3-7-sonnet-latest': claude(3, 15),
  'claude-3-5-sonnet-20241022': claude(3, 15),
  'claude-3-5-sonnet-20240620': claude(3, 15),
  'claude-3-5-haiku-20241022': claude(0.8, 4),
  'claude-3-5-haiku-latest': claude(0.8, 4),
  'claude-3-haiku-20240307': claude(0.25, 1.25),
  'claude-3-opus-20240229': claude(15, 75),

  // Google Gemini (paid tier, text input)
  'gemini-3-pro-preview': openai(2, 12, 0.2),
  'gemini-3-flash-preview': openai(0.5, 3, 0.05),
  'gemini-2.5-pro': openai(1.25, 10, 0.125),
  'gemini-2.5-flash': openai(0.3, 2.5, 0.03),
  'gemini-2.5-flash-preview-09-2025': openai(0.3, 2.5, 0.03),
  'gemini-2.5-flash-lite': openai(0.1, 0.4, 0.01),
  'gemini-2.5-flash-lite-preview-09-2025': openai(0.1, 0.4, 0.01),
  'gemini-2.0-flash': openai(0.1, 0.4),
  'gemini-2.0-flash-lite': openai(0.075, 0.3),
  'gemini-embedding-001': openai(0.15, 0.15),

  // DeepSeek (V3.2: one price for both modes; cache hits listed apart)
  'deepseek-chat': openai(0.28, 0.42, 0.028),
  'deepseek-reasoner': openai(0.28, 0.42, 0.028),

  // Alibaba Qwen (Model Studio international, lowest context tier)
  'qwen3-max': openai(1.2, 6),
  'qwen-max': openai(1.6, 6.4),
  'qwen-plus': openai(0.4, 1.2),
  'qwen-flash': openai(0.05, 0.4),
  'qwen-turbo': openai(0.05, 0.2),
  'qwen3-coder-plus': openai(1, 5),
  'qwen3-coder-flash': openai(0.3, 1.5),

  // xAI
  'grok-4': openai(3, 15, 0.75),
  'grok-4-0709': openai(3, 15, 0.75),
  'grok-4-fast-reasoning': openai(0.2, 0.5, 0.05),
  'grok-4-fast-non-reasoning': openai(0.2, 0.5, 0.05),
  'grok-code-fast-1': openai(0.2, 1.5, 0.02),
  'grok-3': openai(3, 15, 0.75),
  'grok-3-mini': openai(0.3, 0.5, 0.075),

  // Moonshot (Kimi)
  'kimi-k2-0905-preview': openai(0.6, 2.5, 0.15),
  'kimi-k2-0711-preview': openai(0.6, 2.5, 0.15),
  'kimi-k2-thinking': openai(0.6, 2.5, 0.15),

  // Zhipu / Z.ai (GLM)
  'glm-4.6': openai(0.6, 2.2, 0.11),
  'glm-4.5': openai(0.6, 2.2, 0.11),
  'glm-4.5-air': openai(0.2, 1.1, 0.03),

  // Mistral
  'mistral-large-latest': openai(2, 6),
  'mistral-medium-latest': openai(0.4, 2),
  'mistral-small-latest': openai(0.1, 0.3),
  'codestral-latest': openai(0.3, 0.9),
  'devstral-medium-latest': openai(0.4, 2),
  'devstral-small-latest': openai(0.1, 0.3),

  // Cohere
  'command-a-03-2025': openai(2.5, 10),
  'command-r-08-2024': openai(0.15, 0.6),
  'command-r-plus-08-2024': openai(2.5, 10),

  // MiniMax
  'MiniMax-M2': openai(0.3, 1.2),
};

/**
 * Older models, in the reference gateway's ratio form (quota per input token; their completion
 * ratios come from the family rules in completion-ratio.ts), kept so operators moving from it
 * see the numbers they know. A model is listed here or in MODEL_PRICES_USD, never both.
 */
const RMB = 500 / 7.3; // ratio of ¥1 per 1K tokens
export const REFERENCE_MODEL_RATIOS: Readonly<Record<string, number>> = {
  'gpt-4': 15,
  'gpt-4-0613': 15,
  'gpt-4-32k': 30,
  'gpt-4-turbo': 5,
  'gpt-4-turbo-2024-04-09': 5,
  'gpt-4-1106-preview': 5,
  'gpt-4-0125-preview': 5,
  'gpt-4o-2024-05-13': 2.5,
  'chatgpt-4o-latest': 2.5,
  'gpt-4.5-preview': 37.5,
  'o1-preview': 7.5,
  'o3-mini-high': 0.55,
  'o3-mini-medium': 0.55,
  'o3-mini-low': 0.55,
  'gpt-4o-realtime-preview': 2.5,
  'gpt-4o-mini-realtime-preview': 0.3,
  'gpt-3.5-turbo': 0.25,
  'gpt-3.5-turbo-0125': 0.25,
  'gpt-3.5-turbo-1106': 0.5,
  'gpt-3.5-turbo-16k': 1.5,
  'gpt-3.5-turbo-instruct': 0.75,
  'whisper-1': 15,
  'tts-1': 7.5,
  'tts-1-hd': 15,
  'text-moderation-latest': 0.1,
  'text-moderation-stable': 0.1,
  'omni-moderation-latest': 0.1,
  'claude-2.1': 4,
  'gemini-1.5-pro-latest': 1.25,
  'gemini-1.5-flash-latest': 0.075,
  'gemini-2.5-pro-exp-03-25': 0.625,
  'gemini-2.5-pro-preview-03-25': 0.625,
  'text-embedding-004': 0.001,
  'deepseek-coder': 0.135,
  'grok-3-beta': 1.5,
  'grok-3-mini-beta': 0.15,
  'glm-4-flash': 0,
  'glm-4': 7.143,
  'ERNIE-4.0-8K': 0.12 * RMB,
  'command-r': 0.25,
  'command-r-plus': 1.5,
  'moonshot-v1-8k': 0.012 * RMB,
  hunyuan: 7.143,
  'yi-large': (20 / 1000) * RMB,
};

/** Cache-hit ratios of the reference's older entries. */
export const REFERENCE_CACHE_RATIOS: Readonly<Record<string, number>> = {
  'gpt-4': 0.5,
  'o1-preview': 0.5,
  'gpt-4.5-preview': 0.5,
  'gpt-4o-realtime-preview': 0.5,
  'gpt-4o-mini-realtime-preview': 0.5,
  'deepseek-coder': 0.25,
};

/** Completion ratios the reference ships for families priced per call or by pattern. */
export const REFERENCE_COMPLETION_RATIOS: Readonly<Record<string, number>> = {
  'gpt-4-gizmo-*': 2,
  'gpt-4o-gizmo-*': 3,
  'gpt-4-all': 2,
};

/** Models priced per call, in USD (ModelPrice). */
export const FIXED_PRICES_USD: Readonly<Record<string, number>> = {
  'dall-e-3': 0.04,
  'imagen-3.0-generate-002': 0.03,
  'gpt-4-gizmo-*': 0.1,
  suno_music: 0.1,
  suno_lyrics: 0.01,
  mj_imagine: 0.1,
  mj_variation: 0.1,
  mj_reroll: 0.1,
  mj_blend: 0.1,
  mj_modal: 0.1,
  mj_zoom: 0.1,
  mj_shorten: 0.1,
  mj_high_variation: 0.1,
  mj_low_variation: 0.1,
  mj_pan: 0.1,
  mj_describe: 0.05,
  mj_upscale: 0.05,
  swap_face: 0.05,
  mj_upload: 0.05,
  mj_inpaint: 0,
  mj_custom_zoom: 0,
};
