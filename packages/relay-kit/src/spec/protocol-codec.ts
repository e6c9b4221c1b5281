import type { Protocol } from './protocol.js';
import type { RelayCall } from './relay-call.js';
import type { StreamPart } from './stream-part.js';
import type { UnifiedResponse } from './unified-response.js';
import type { Usage } from './usage.js';

/** A client request as the server received it. */
export interface ClientRequest {
  /** The body bytes as received; kept on the call for byte-exact forwarding. */
  readonly rawBody?: Uint8Array | string | undefined;
  /** The body already parsed as JSON; when absent the codec parses `rawBody`. */
  readonly json?: unknown;
  /** The request path without the query string. */
  readonly path?: string | undefined;
  /** The query string parameters. */
  readonly query?: URLSearchParams | undefined;
  /** The request headers (lowercase names); codecs copy the few they need onto the call. */
  readonly headers?: Readonly<Record<string, string | string[] | undefined>> | undefined;
}

/** An error to present to a client in its protocol's shape. */
export interface ClientError {
  readonly status: number;
  /** Already safe for clients (masked). */
  readonly message: string;
  /** Protocol error type (`invalid_request_error`...); the codec picks a default. */
  readonly type?: string | undefined;
  readonly code?: string | null | undefined;
  readonly param?: string | null | undefined;
}

/** Identity of a response, for chunks the gateway writes itself. */
export interface ResponseMeta {
  readonly id: string;
  readonly model: string;
  /** Unix seconds. */
  readonly created: number;
}

/** Options of `ProtocolCodec.toClientStream`. */
export interface ClientStreamOptions {
  /**
   * Called when the stream ends with the last usage the upstream reported (or `undefined`); its
   * result is what the client sees. The server uses it to fill in a locally counted usage.
   */
  readonly resolveUsage?: ((usage: Usage | undefined) => Usage | undefined) | undefined;
}

/**
 * The client side of a protocol, mirror image of a `ProviderAdapter`: parses what clients send
 * into a {@link RelayCall} and writes responses, streams and errors back in the client's shape.
 * Stateless; one instance serves every request.
 */
export interface ProtocolCodec {
  readonly protocol: Protocol;
  /** Validates and normalises a request. Throws `RelayRequestError` with a clear message. */
  parseRequest(request: ClientRequest): RelayCall;
  /**
   * Converts a call of this protocol into an `openai-chat` call (the hub format), so that any
   * upstream accepting chat completions can serve it; the response comes back through
   * `toClientResponse` / `toClientStream`. Absent for `openai-chat` itself and for protocols that
   * only pass through (embeddings, images...). Throws `RelayRequestError` for content that has no
   * chat equivalent.
   */
  toChatCall?(call: RelayCall): RelayCall;
  /**
   * Converts a call of this protocol into an `openai-embeddings` call (the embeddings hub), so
   * that upstreams serving `/v1/embeddings` can answer it; their answer comes back through
   * {@link fromEmbeddingsAnswer}. Present only on embeddings protocols (Gemini's).
   */
  toEmbeddingsCall?(call: RelayCall): RelayCall;
  /** The client's answer (JSON text) from the `/v1/embeddings` answer of a converted call. */
  fromEmbeddingsAnswer?(text: string, call: RelayCall): string;
  /** The error body (JSON text) for a failure before any byte was sent. */
  formatError(error: ClientError): string;
  /** The stream event(s) for a failure after the first byte; the stream ends after it. */
  formatStreamError(error: ClientError): string;
  /** A converted non-stream response body (JSON text). */
  toClientResponse(response: UnifiedResponse, call: RelayCall): string;
  /** A converted stream, parts in, client wire bytes out (end marker included). */
  toClientStream(call: RelayCall, options?: ClientStreamOptions): TransformStream<StreamPart, Uint8Array>;
  /**
   * A synthetic usage event for a pass-through stream whose upstream sent no usage, when the
   * client asked for it. Absent when the protocol has no such event.
   */
  formatUsageEvent?(usage: Usage, meta: ResponseMeta): string;
  /** The protocol's end-of-stream marker (`data: [DONE]\n\n`), if it has one. */
  readonly streamEndMarker?: string | undefined;
}
