import type { Protocol } from '../../spec/protocol.js';
import type { OpenAIAuthStyle, OpenAIFamilyConfig, StreamOptionsPolicy } from '../openai/openai-config.js';

/**
 * A vendor that speaks the OpenAI format, described as data (Portkey's declarative idea, typed):
 * adding one is adding an entry to `openai-compatible-providers.ts` and a line in the registry.
 * Omitted fields take the defaults of {@link defineOpenAICompatibleProvider}.
 */
export interface OpenAICompatibleProviderConfig {
  readonly channelType: number;
  readonly name: string;
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
}

/** Fills in the defaults of an OpenAI-compatible vendor, producing an OpenAI-family config. */
export function defineOpenAICompatibleProvider(config: OpenAICompatibleProviderConfig): OpenAIFamilyConfig {
  return {
    channelType: config.channelType,
    name: config.name,
    defaultBaseUrl: config.defaultBaseUrl,
    auth: config.auth ?? { style: 'bearer' },
    sendOrganization: false,
    paths: config.paths ?? { 'openai-chat': '/v1/chat/completions' },
    streamOptions: config.streamOptions ?? 'strip',
    dropParameters: config.dropParameters,
    renameParameters: config.renameParameters,
    extraHeaders: config.extraHeaders,
    reasoningModelRules: false,
  };
}
