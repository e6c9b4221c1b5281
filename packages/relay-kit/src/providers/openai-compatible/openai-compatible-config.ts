import type { Protocol } from '../../spec/protocol.js';
import {
  OPENAI_MODELS_LISTING,
  type OpenAIAuthStyle,
  type OpenAIFamilyConfig,
  type OpenAIModelsListing,
  type OpenAIUrlContext,
  type StreamOptionsPolicy,
} from '../openai/openai-config.js';

/**
 * A vendor that speaks the OpenAI format, described as data (Portkey's declarative idea, typed):
 * adding one is adding an entry to `openai-compatible-providers.ts` and a line in the registry.
 * Omitted fields take the defaults of {@link defineOpenAICompatibleProvider}.
 */
export interface OpenAICompatibleProviderConfig {
  readonly channelType: number;
  readonly name: string;
  /** Empty when the channel must set its own base URL (then `requiresBaseUrl` is implied). */
  readonly defaultBaseUrl: string;
  /** Default bearer. */
  readonly auth?: OpenAIAuthStyle | undefined;
  /** Default: chat completions at `/v1/chat/completions` only. */
  readonly paths?: Readonly<Partial<Record<Protocol, string>>> | undefined;
  /**
   * Default `strip`: only vendors known to accept `stream_options` get `force` (new-api strips it
   * for every type except OpenAI and Azure because some vendors reject the field).
   */
  readonly streamOptions?: StreamOptionsPolicy | undefined;
  readonly dropParameters?: readonly string[] | undefined;
  readonly renameParameters?: Readonly<Record<string, string>> | undefined;
  readonly extraHeaders?: Readonly<Record<string, string>> | undefined;
  /** Send the channel's organization as `OpenAI-Organization` (Azure-like clones). Default false. */
  readonly sendOrganization?: boolean | undefined;
  /** Apply the reasoning-model rules to models matching this pattern (xAI `grok-3-mini`). */
  readonly reasoningModelPattern?: RegExp | undefined;
  /** A URL builder replacing base URL + path. */
  readonly buildUrl?: ((context: OpenAIUrlContext) => string) | undefined;
  /** The model list endpoint; default `GET /v1/models`; `null` when the vendor has none. */
  readonly models?: OpenAIModelsListing | null | undefined;
  /** Rerank answers carry no usage to trust (the local estimate bills them). */
  readonly ignoreRerankUsage?: boolean | undefined;
}

/** Fills in the defaults of an OpenAI-compatible vendor, producing an OpenAI-family config. */
export function defineOpenAICompatibleProvider(config: OpenAICompatibleProviderConfig): OpenAIFamilyConfig {
  return {
    channelType: config.channelType,
    name: config.name,
    defaultBaseUrl: config.defaultBaseUrl,
    auth: config.auth ?? { style: 'bearer' },
    sendOrganization: config.sendOrganization ?? false,
    paths: config.paths ?? { 'openai-chat': '/v1/chat/completions' },
    streamOptions: config.streamOptions ?? 'strip',
    dropParameters: config.dropParameters,
    renameParameters: config.renameParameters,
    extraHeaders: config.extraHeaders,
    reasoningModelRules: config.reasoningModelPattern !== undefined,
    reasoningModelPattern: config.reasoningModelPattern,
    buildUrl: config.buildUrl,
    requiresBaseUrl: config.defaultBaseUrl === '',
    models: config.models === null ? undefined : (config.models ?? OPENAI_MODELS_LISTING),
    ignoreRerankUsage: config.ignoreRerankUsage,
  };
}
