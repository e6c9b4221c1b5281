import type { ChannelRuntime } from './channel-runtime.js';
import type { PassthroughTap, PassthroughTapOptions } from './passthrough-tap.js';
import type { Protocol } from './protocol.js';
import type { ProviderSettings } from './provider-settings.js';
import type { RelayCall } from './relay-call.js';
import type { SseEvent } from './sse-event.js';
import type { StreamPart } from './stream-part.js';
import type { UnifiedResponse } from './unified-response.js';
import type { UpstreamError } from './upstream-error.js';
import type { UpstreamRequest } from './upstream-request.js';
import type { Usage } from './usage.js';

/** Response headers as the server has them (a `Headers` object or a plain record). */
export type HeadersLike = Headers | Readonly<Record<string, string | readonly string[] | undefined>>;

/**
 * Knows one upstream wire format and nothing else. Pure: it builds requests and reads responses;
 * the server sends them. One adapter instance serves every channel of its type (channel data
 * arrives per call as {@link ChannelRuntime}), so adapters hold no per-request state.
 *
 * Relay rule: when `nativeProtocols` contains the client's protocol, the server forwards the body
 * (`buildRequest` keeps it byte-exact when nothing changes) and pipes the upstream bytes back
 * through `createPassthroughTap`. Only when the protocols differ does it convert through
 * `toStreamParts` / `toResponse`.
 */
export interface ProviderAdapter {
  /** The channel type this instance serves. */
  readonly channelType: number;
  /** Short identifier for logs (`openai`, `deepseek`). */
  readonly name: string;
  /** Client protocols this upstream speaks as is (pass-through candidates). */
  readonly nativeProtocols: readonly Protocol[];
  /**
   * Protocols `buildRequest` accepts by converting them to the upstream's format (usually
   * `['openai-chat']`, the hub format). A client protocol that is neither native nor listed here
   * reaches the adapter through its codec's `toChatCall`.
   */
  readonly convertibleProtocols?: readonly Protocol[] | undefined;
  /**
   * The upstream cannot fetch image URLs itself (Gemini): before `buildRequest` the server
   * downloads the http(s) images of an `openai-chat` call (through the site's image worker when
   * one is configured) and passes them as `data:` URLs.
   */
  readonly inlineRemoteImages?: boolean | undefined;
  /**
   * The upstream has a search tool of its own that a converted call's chat `web_search_options`
   * maps to (Anthropic's web search tool, Gemini's Google Search grounding). Without it, the
   * server drops a converted call's web search request (with a note in the log) instead of
   * sending a field the upstream would refuse.
   */
  readonly webSearch?: boolean | undefined;
  /**
   * Builds the upstream HTTP request: URL from the channel's base URL, credentials, channel model
   * mapping, parameter and header overrides, and the site's model `settings` (defaults when
   * absent). Throws `RelayRequestError` for a protocol the adapter cannot serve.
   */
  buildRequest(call: RelayCall, channel: ChannelRuntime, settings?: ProviderSettings): UpstreamRequest;
  /**
   * The upstream's own token count for a call of a native protocol (Anthropic's
   * `/v1/messages/count_tokens`, Gemini's `:countTokens`), sent as the client wrote it. Absent when
   * the upstream has none: the gateway then answers with its own estimate.
   */
  buildCountTokensRequest?(
    call: RelayCall,
    channel: ChannelRuntime,
    settings?: ProviderSettings,
  ): UpstreamRequest;
  /**
   * Asynchronous credential preparation (OAuth access tokens for Vertex AI, for example), run by
   * the server before `buildRequest`; returns the channel to build with (same object when nothing
   * changes). Adapters may cache results keyed by the credential; network only through `fetch`.
   */
  prepareChannel?(channel: ChannelRuntime, fetch: typeof globalThis.fetch): Promise<ChannelRuntime>;
  /**
   * A tap for streaming the upstream's native bytes straight to a client of the same protocol.
   * `options.protocol` says which native protocol the stream is in (default: the first native).
   */
  createPassthroughTap(options?: PassthroughTapOptions): PassthroughTap;
  /**
   * For upstreams whose stream is not SSE (AWS event-stream): decodes the raw body into
   * `SseEvent`s for `toStreamParts`. Such adapters list no streaming protocol as native, so the
   * server always takes the conversion path with them.
   */
  decodeStream?(): TransformStream<Uint8Array, SseEvent>;
  /** Turns the upstream's parsed SSE events into protocol-neutral parts (conversion path). */
  toStreamParts(call: RelayCall): TransformStream<SseEvent, StreamPart>;
  /** Turns a parsed non-stream body into a protocol-neutral response (conversion path). */
  toResponse(body: unknown, call: RelayCall): UnifiedResponse;
  /**
   * Reads usage from an SSE event or a parsed body/chunk (or its JSON text) of `protocol`
   * (default: the first native protocol); `undefined` when it carries none.
   */
  readUsage(source: SseEvent | unknown, protocol?: Protocol): Usage | undefined;
  /** Classifies a non-2xx response (or a 2xx error body) as an {@link UpstreamError}. */
  parseError(status: number, bodyText: string, headers?: HeadersLike): UpstreamError;
  /** Lists the models the channel can use, through the injected `fetch`. */
  listModels?(channel: ChannelRuntime, fetch: typeof globalThis.fetch): Promise<string[]>;
  /** Reads the channel's remaining upstream balance, through the injected `fetch`. */
  fetchBalance?(channel: ChannelRuntime, fetch: typeof globalThis.fetch): Promise<number>;
}

/** True when `adapter.buildRequest` accepts `protocol`, natively or by conversion. */
export function acceptsProtocol(adapter: ProviderAdapter, protocol: Protocol): boolean {
  return (
    adapter.nativeProtocols.includes(protocol) || (adapter.convertibleProtocols?.includes(protocol) ?? false)
  );
}

/** True when `protocol` can be passed through to `adapter` without conversion. */
export function isNativeProtocol(adapter: ProviderAdapter, protocol: Protocol): boolean {
  return adapter.nativeProtocols.includes(protocol);
}
