/**
 * An HTTP request for the server to send. Adapters build it without performing I/O. Header names
 * are lowercase.
 */
export interface UpstreamRequest {
  readonly url: string;
  readonly method: 'POST' | 'GET' | 'PUT' | 'DELETE';
  readonly headers: Readonly<Record<string, string>>;
  /** The body to send; a `Uint8Array` when the client's bytes are forwarded unchanged. */
  readonly body?: string | Uint8Array | undefined;
  /** The model name actually sent (after channel mapping), for logs (`upstream_model_name`). */
  readonly upstreamModel: string;
  /**
   * The adapter turned on stream usage (`stream_options.include_usage`) although the client did
   * not ask for it: the pass-through tap must drop the usage-only chunk before the client sees it.
   */
  readonly streamUsageForced: boolean;
  /** Parameters the adapter had to change or drop; log them (and optionally return a header). */
  readonly warnings: readonly string[];
}
