import type { UpstreamRequest } from '@switchyard/relay-kit';
import { Agent, type Dispatcher, request } from 'undici';
import type { Config } from '../config/env.ts';

/**
 * Sends upstream requests over one undici Agent (a keep-alive pool per origin) with connect,
 * header (first byte) and body-idle timeouts, and the caller's abort signal so a client that goes
 * away cancels the upstream call.
 */
export class UpstreamClient {
  private readonly agent: Agent;

  constructor(
    config: Pick<Config, 'relayTimeoutSeconds' | 'streamingTimeoutSeconds' | 'upstreamConnectTimeoutSeconds'>,
  ) {
    this.agent = new Agent({
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 600_000,
      // No per-origin cap: a cap makes extra requests wait silently inside undici (thousands of
      // open streams to one provider are normal). Overload protection belongs in front of it.
      connections: null,
      pipelining: 1,
      connect: { timeout: config.upstreamConnectTimeoutSeconds * 1000 },
      headersTimeout: config.relayTimeoutSeconds * 1000,
      bodyTimeout: config.streamingTimeoutSeconds * 1000,
    });
  }

  /** Sends the request; resolves once the response headers arrive. Throws on network failure or timeout. */
  send(upstream: UpstreamRequest, signal: AbortSignal): Promise<Dispatcher.ResponseData> {
    return request(upstream.url, {
      method: upstream.method,
      headers: upstream.headers,
      body: upstream.body,
      signal,
      dispatcher: this.agent,
    });
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}
