import {
  acceptsProtocol,
  type ChannelSetting,
  geminiWantsJsonArrayStream,
  isNativeProtocol,
  type Protocol,
  type ProtocolCodec,
  type ProviderAdapter,
  type RelayCall,
} from '@switchyard/relay-kit';

/**
 * How one attempt reaches an upstream:
 * - `passthrough`: the upstream speaks the client's protocol; the body is forwarded and the
 *   upstream bytes are piped back through the adapter's tap.
 * - `convert`: the adapter receives `call` (the client's call, or its chat-completions form from
 *   the codec's `toChatCall`) and the answer is converted back through stream parts.
 */
export type UpstreamPlan =
  | { readonly mode: 'passthrough'; readonly call: RelayCall }
  | { readonly mode: 'convert'; readonly call: RelayCall; readonly note?: string };

/** What a plan's conversions need from the call: each converted at most once per request. */
export interface PlanConversions {
  chatCall(): RelayCall;
  /** The chat call without its `web_search_options`, for upstreams with no search tool. */
  chatCallWithoutWebSearch(): RelayCall;
  /** The call as an OpenAI embeddings call (codecs with `toEmbeddingsCall`). */
  embeddingsCall(): RelayCall;
}

/** The log note of a converted call whose web search request the upstream cannot serve. */
export const WEB_SEARCH_DROPPED =
  'web search is not available on this channel: the web_search tool was dropped';

const REFORMATTABLE: ReadonlySet<Protocol> = new Set(['openai-chat', 'openai-completions']);

/**
 * Chooses pass-through or conversion for a channel's adapter, or `null` when the adapter cannot
 * serve the client's protocol at all (the channel is then skipped). `conversions.chatCall`
 * converts lazily and at most once per request. A converted call's web search request
 * (`web_search_options`, from a Responses `web_search` tool or Anthropic's web search tool) goes
 * only to adapters with a search tool of their own; for the others it is dropped with a `note`.
 */
export function planUpstreamCall(
  adapter: ProviderAdapter,
  call: RelayCall,
  codec: ProtocolCodec,
  setting: ChannelSetting | undefined,
  conversions: PlanConversions,
): UpstreamPlan | null {
  if (isNativeProtocol(adapter, call.protocol)) {
    // Gemini clients without `alt=sse` expect a JSON-array stream; upstreams are asked for SSE.
    if (call.protocol === 'gemini' && geminiWantsJsonArrayStream(call)) return { mode: 'convert', call };
    // `force_format` re-serialises every chunk through the codec (for non-standard upstreams).
    const reformat = setting?.forceFormat === true && REFORMATTABLE.has(call.protocol);
    return { mode: reformat ? 'convert' : 'passthrough', call };
  }
  if (acceptsProtocol(adapter, call.protocol)) return { mode: 'convert', call };
  if (codec.toChatCall !== undefined && acceptsProtocol(adapter, 'openai-chat')) {
    const chat = conversions.chatCall();
    if (adapter.webSearch !== true && chat.body.web_search_options !== undefined) {
      return { mode: 'convert', call: conversions.chatCallWithoutWebSearch(), note: WEB_SEARCH_DROPPED };
    }
    return { mode: 'convert', call: chat };
  }
  if (codec.toEmbeddingsCall !== undefined && isNativeProtocol(adapter, 'openai-embeddings')) {
    return { mode: 'convert', call: conversions.embeddingsCall() };
  }
  return null;
}
