import type { PromptInput } from './prompt-input.js';
import type { Protocol } from './protocol.js';

/**
 * A client request normalised by a protocol codec: the few fields the gateway reads (model,
 * stream flag, token limits, text for estimation) plus the parsed body kept opaque, so unknown
 * fields reach the upstream untouched. Immutable: per-attempt changes produce a new object.
 */
export interface RelayCall {
  /** The protocol the client spoke. */
  readonly protocol: Protocol;
  /** The model the client asked for. Billing, logs and routing use this name. */
  readonly model: string;
  /**
   * The model to send upstream when the selected channel has no mapping for `model`. Codecs set
   * it to `model`; the server may change it (e.g. a global alias). Channel model mapping is
   * applied by the adapter in `buildRequest`, which reports the final name.
   */
  readonly upstreamModel: string;
  /** The client asked for a streamed response. */
  readonly stream: boolean;
  /**
   * The client asked for token usage in the stream (OpenAI `stream_options.include_usage`).
   * Always false for non-stream calls.
   */
  readonly includeUsage: boolean;
  /** The largest output token limit the client set (`max_tokens`, `max_completion_tokens`...). */
  readonly maxTokens?: number | undefined;
  /** The parsed JSON body, kept opaque. Never mutate it: adapters copy before changing fields. */
  readonly body: Readonly<Record<string, unknown>>;
  /**
   * The body bytes exactly as the client sent them. Adapters forward these unchanged when they
   * have nothing to change, so the common path is byte-exact and skips `JSON.stringify`.
   */
  readonly rawBody?: Uint8Array | string | undefined;
  /** The request path the client used (`/v1/chat/completions`), without the query string. */
  readonly path?: string | undefined;
  /**
   * The client's query string parameters (Gemini `alt=sse`), without credentials (`key` is
   * removed by the server before the call is built).
   */
  readonly query?: URLSearchParams | undefined;
  /**
   * Client headers a protocol needs upstream (lowercase names), e.g. `anthropic-version` and
   * `anthropic-beta` for Anthropic Messages. Never credentials.
   */
  readonly headers?: Readonly<Record<string, string>> | undefined;
  /** What local prompt-token estimation needs (see `estimatePromptTokens`). */
  readonly prompt: PromptInput;
  /**
   * Billing quantities of calls not priced by tokens alone (images, speech, uploads), set by the
   * images and audio codecs; absent for token-priced protocols.
   */
  readonly quantities?: RelayQuantities | undefined;
}

/**
 * What billing needs from image and audio requests, read and defaulted by the codecs (reference
 * §4.5: images price × size ratio × quality ratio × n; TTS prompt = characters of `input`).
 */
export interface RelayQuantities {
  /** Images requested (`n`, default 1). */
  readonly imageCount?: number | undefined;
  /** Image size as sent or defaulted (`1024x1024`); `auto` and vendor sizes are kept as is. */
  readonly imageSize?: string | undefined;
  /** Image quality as sent or defaulted (`standard` for dall-e-3), undefined when not applicable. */
  readonly imageQuality?: string | undefined;
  /** Speech: characters (Unicode code points) of `input`. */
  readonly inputCharacters?: number | undefined;
  /** Transcription / image edit: bytes of the uploaded file(s). */
  readonly uploadBytes?: number | undefined;
}
