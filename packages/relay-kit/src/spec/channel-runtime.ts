/**
 * Per-channel behaviour switches stored in the channel's `setting` JSON. Unknown keys are kept by
 * the server but ignored here.
 */
export interface ChannelSetting {
  /** Re-serialise every chunk (normalises non-standard upstreams); disables pass-through. */
  readonly forceFormat?: boolean | undefined;
  /** Rewrite reasoning deltas into `<think>` content. */
  readonly thinkingToContent?: boolean | undefined;
  /** Outbound proxy URL; applied by the server's HTTP client, not by adapters. */
  readonly proxy?: string | undefined;
  /** A system prompt the gateway adds to every chat call on this channel. */
  readonly systemPrompt?: string | undefined;
}

/**
 * The selected channel as adapters see it: credentials and per-channel overrides, already parsed
 * (the server parses the channel's JSON columns once, when it builds its channel index, never per
 * request). Adapters only read it.
 */
export interface ChannelRuntime {
  /** Channel id, for diagnostics only. */
  readonly id?: number | undefined;
  /** Channel type (see the channel types table); selects the adapter. */
  readonly type: number;
  /** The credential, in the type's key format. Never put it in a message or log. */
  readonly key: string;
  /** Base URL; empty or missing means the adapter's default. */
  readonly baseUrl?: string | undefined;
  /** Type-specific extra value (API version, region, account id...). */
  readonly other?: string | undefined;
  /** OpenAI organization id (`OpenAI-Organization` header). */
  readonly organization?: string | undefined;
  /** Exact-match model mapping `{requested: upstream}`; no chains, no wildcards. */
  readonly modelMapping?: Readonly<Record<string, string>> | undefined;
  /** Shallow-merged over the top-level request fields (overwrites). */
  readonly paramOverride?: Readonly<Record<string, unknown>> | undefined;
  /**
   * Extra upstream headers, applied last. The placeholder `{api_key}` in a value is replaced with
   * the channel key.
   */
  readonly headerOverride?: Readonly<Record<string, string>> | undefined;
  readonly setting?: ChannelSetting | undefined;
}

/**
 * The model to send upstream for `model` on this channel: the channel's exact mapping if it has
 * one (an empty mapped value is ignored), otherwise `fallback`.
 */
export function mapChannelModel(channel: ChannelRuntime, model: string, fallback: string = model): string {
  const mapping = channel.modelMapping;
  if (mapping === undefined || !Object.hasOwn(mapping, model)) return fallback;
  const mapped = mapping[model];
  return typeof mapped === 'string' && mapped !== '' ? mapped : fallback;
}
