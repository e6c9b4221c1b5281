import type { ChannelRuntime } from '../../spec/channel-runtime.js';
import type { Protocol } from '../../spec/protocol.js';
import type { RelayCall } from '../../spec/relay-call.js';

/** How an OpenAI-family upstream expects the channel key. */
export type OpenAIAuthStyle =
  /** `Authorization: Bearer <key>` */
  | { readonly style: 'bearer' }
  /** `<header>: <key>` (Azure's `api-key`). */
  | { readonly style: 'header'; readonly header: string }
  /** No credential header (local servers such as Ollama). */
  | { readonly style: 'none' }
  /** `Authorization: Bearer <key>` when the channel has a key, nothing otherwise (Ollama). */
  | { readonly style: 'bearer-optional' }
  /** Headers computed from the channel (Zhipu's JWT signed with the key). */
  | { readonly style: 'custom'; readonly headers: (channel: ChannelRuntime) => Record<string, string> };

/** What a custom URL builder receives. */
export interface OpenAIUrlContext {
  readonly call: RelayCall;
  readonly channel: ChannelRuntime;
  /** The channel's base URL or the config default, without trailing slashes. */
  readonly baseUrl: string;
  /** The protocol's path (after edits/translations selection). */
  readonly path: string;
  /** The model sent upstream. */
  readonly model: string;
}

/** How `listModels` reads the upstream's model list. */
export interface OpenAIModelsListing {
  /** Path appended to the base URL (`/v1/models`), or a function of the channel. */
  readonly path: string | ((channel: ChannelRuntime, baseUrl: string) => string);
  /** `openai`: `{data:[{id}]}` (also `{models:[{name|id}]}`); `ollama`: `{models:[{name}]}`. */
  readonly format?: 'openai' | 'ollama' | 'cloudflare' | undefined;
}

/**
 * What to do with `stream_options` on streamed chat and completions calls.
 * - `force`: set `include_usage: true` so the gateway can bill from upstream usage (the tap drops
 *   the extra usage chunk when the client did not ask for it).
 * - `strip`: remove it (upstreams that reject the field; usage then comes from local counting
 *   unless the upstream sends it anyway).
 * - `keep`: forward whatever the client sent.
 */
export type StreamOptionsPolicy = 'force' | 'strip' | 'keep';

/**
 * Declarative description of an OpenAI-format upstream. The OpenAI adapter is this config with
 * OpenAI's values; OpenAI-compatible vendors (DeepSeek, Moonshot, ...) are entries in
 * `openai-compatible/` with their own values, not separate code.
 */
export interface OpenAIFamilyConfig {
  /** Channel type id (see the channel types table). */
  readonly channelType: number;
  /** Short identifier for logs. */
  readonly name: string;
  /** Used when the channel has no base URL. No trailing slash. */
  readonly defaultBaseUrl: string;
  readonly auth: OpenAIAuthStyle;
  /** Send the channel's organization as `OpenAI-Organization`. */
  readonly sendOrganization?: boolean | undefined;
  /** Request path per supported protocol; the supported protocols are exactly these keys. */
  readonly paths: Readonly<Partial<Record<Protocol, string>>>;
  readonly streamOptions: StreamOptionsPolicy;
  /** Top-level request fields the upstream rejects; removed with a warning. */
  readonly dropParameters?: readonly string[] | undefined;
  /** Top-level request fields the upstream names differently (`{ from: to }`), with a warning. */
  readonly renameParameters?: Readonly<Record<string, string>> | undefined;
  /** Headers every request to this upstream carries (before the channel's header override). */
  readonly extraHeaders?: Readonly<Record<string, string>> | undefined;
  /**
   * Apply OpenAI's reasoning-model rules on chat calls (o-series, gpt-5): `max_tokens` becomes
   * `max_completion_tokens`, and a `-low`/`-medium`/`-high` model suffix becomes
   * `reasoning_effort`.
   */
  readonly reasoningModelRules?: boolean | undefined;
  /** The models the reasoning rules apply to (default: OpenAI's `o1`…, `gpt-5`). */
  readonly reasoningModelPattern?: RegExp | undefined;
  /**
   * Builds the whole URL instead of base URL + path (Azure deployments, Custom's `{model}`
   * template, Cloudflare's account path, VolcEngine bots).
   */
  readonly buildUrl?: ((context: OpenAIUrlContext) => string) | undefined;
  /** The channel must set a base URL (no usable default): building a request without one fails. */
  readonly requiresBaseUrl?: boolean | undefined;
  /** Where the model list comes from; absent means `listModels` is not offered. */
  readonly models?: OpenAIModelsListing | undefined;
  /** Rerank answers carry no trustworthy usage (Xinference): `readUsage` reports none for rerank. */
  readonly ignoreRerankUsage?: boolean | undefined;
}

/** OpenAI's paths, shared by vendors that copy the whole API. */
export const OPENAI_PATHS: Readonly<Partial<Record<Protocol, string>>> = {
  'openai-chat': '/v1/chat/completions',
  'openai-completions': '/v1/completions',
  'openai-embeddings': '/v1/embeddings',
  'openai-moderations': '/v1/moderations',
  'openai-responses': '/v1/responses',
  'openai-images': '/v1/images/generations',
  'openai-audio-speech': '/v1/audio/speech',
  'openai-audio-transcription': '/v1/audio/transcriptions',
  rerank: '/v1/rerank',
};

/** The standard model list endpoint. */
export const OPENAI_MODELS_LISTING: OpenAIModelsListing = { path: '/v1/models', format: 'openai' };

/** The OpenAI channel (type 1). */
export const OPENAI_CONFIG: OpenAIFamilyConfig = {
  channelType: 1,
  name: 'openai',
  defaultBaseUrl: 'https://api.openai.com',
  auth: { style: 'bearer' },
  sendOrganization: true,
  paths: OPENAI_PATHS,
  streamOptions: 'force',
  reasoningModelRules: true,
  models: OPENAI_MODELS_LISTING,
};
