import type { UpstreamRequest } from '@switchyard/relay-kit';
import { Agent, type Dispatcher, errors } from 'undici';
import type { Config } from '../config/env.ts';
import type { AbortSource } from './relay-abort.ts';
import { type BufferWhen, type UpstreamAnswer, UpstreamAnswerHandler } from './upstream-answer.ts';
import { UpstreamLimits } from './upstream-limits.ts';

/** Per-channel overrides of the server-wide upstream timeouts, milliseconds (null = server default). */
export interface UpstreamTimeouts {
  connectTimeoutMs: number | null;
  firstByteTimeoutMs: number | null;
  idleTimeoutMs: number | null;
}

/** Distinct connect timeouts that get their own pool; rarer values share the default pool. */
const MAX_EXTRA_AGENTS = 16;

/** Upstream URLs split as undici's `request(url)` splits them (see `targetOf`). */
const MAX_CACHED_TARGETS = 1_000;
const targets = new Map<string, { origin: string; path: string }>();

/**
 * Origin and path of an upstream URL, as undici's top-level `request(url)` derives them (WHATWG
 * URL: origin, pathname + search). Channels call the same few URLs over and over, so the parse is
 * kept (bounded) instead of repeated per request.
 */
export function targetOf(url: string): { origin: string; path: string } {
  let target = targets.get(url);
  if (target === undefined) {
    const parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new errors.InvalidArgumentError(
        'Invalid URL protocol: the URL must start with `http:` or `https:`.',
      );
    }
    target = { origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` };
    if (targets.size >= MAX_CACHED_TARGETS) targets.clear();
    targets.set(url, target);
  }
  return target;
}

/**
 * Sends upstream requests over undici Agents (a keep-alive pool per origin) with connect,
 * header (first byte) and body-idle timeouts, and the caller's abort signal so a client that goes
 * away cancels the upstream call. Every request gives undici its first-byte and idle timeouts
 * (the channel's own or the server's); a connect timeout of its own gets a separate pool (undici
 * sets it per pool).
 * `limits` counts the requests in flight (RELAY_MAX_CONCURRENCY and channel caps).
 */
export class UpstreamClient {
  private readonly agent: Agent;
  private readonly agentsByConnectTimeout = new Map<number, Agent>();
  readonly limits: UpstreamLimits;

  constructor(
    private readonly config: Pick<
      Config,
      'relayTimeoutSeconds' | 'streamingTimeoutSeconds' | 'upstreamConnectTimeoutSeconds'
    > &
      Partial<Pick<Config, 'relayMaxConcurrency'>>,
  ) {
    this.agent = this.createAgent(config.upstreamConnectTimeoutSeconds * 1000);
    this.limits = new UpstreamLimits(config.relayMaxConcurrency ?? null);
  }

  private createAgent(connectTimeoutMs: number): Agent {
    return new Agent({
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 600_000,
      // No per-origin cap: a cap makes extra requests wait silently inside undici (thousands of
      // open streams to one provider are normal). Overload protection is UpstreamLimits, in front.
      connections: null,
      pipelining: 1,
      connect: { timeout: connectTimeoutMs },
      // Off for the pool (0): every request brings its own (see `optionsOf`).
      headersTimeout: 0,
      bodyTimeout: 0,
    });
  }

  private agentFor(connectTimeoutMs: number | null): Agent {
    if (connectTimeoutMs === null || connectTimeoutMs === this.config.upstreamConnectTimeoutSeconds * 1000) {
      return this.agent;
    }
    let agent = this.agentsByConnectTimeout.get(connectTimeoutMs);
    if (!agent) {
      if (this.agentsByConnectTimeout.size >= MAX_EXTRA_AGENTS) return this.agent;
      agent = this.createAgent(connectTimeoutMs);
      this.agentsByConnectTimeout.set(connectTimeoutMs, agent);
    }
    return agent;
  }

  /**
   * Sends the request with undici's `request()` (channel tests; relay calls use `fetchAnswer`);
   * resolves once the response headers arrive. Throws on network failure or timeout.
   */
  send(
    upstream: UpstreamRequest,
    signal: AbortSource,
    timeouts?: UpstreamTimeouts,
  ): Promise<Dispatcher.ResponseData> {
    const options: Dispatcher.RequestOptions = this.optionsOf(upstream, timeouts);
    options.signal = signal;
    return this.agentFor(timeouts?.connectTimeoutMs ?? null).request(options);
  }

  /**
   * Sends the request of a relay call: a 2xx answer `bufferWhen` accepts,
   * and an error answer, resolve once complete with their text (no body stream per call); any
   * other answer resolves at its headers with a readable body (see {@link UpstreamAnswerHandler}).
   */
  fetchAnswer(
    upstream: UpstreamRequest,
    signal: AbortSource,
    timeouts: UpstreamTimeouts | undefined,
    bufferWhen: BufferWhen,
  ): Promise<UpstreamAnswer> {
    const options = this.optionsOf(upstream, timeouts);
    const agent = this.agentFor(timeouts?.connectTimeoutMs ?? null);
    return new Promise((resolve, reject) => {
      agent.dispatch(options, new UpstreamAnswerHandler(signal, bufferWhen, resolve, reject));
    });
  }

  /** undici's options for an upstream request, with its first-byte and idle timeouts. */
  private optionsOf(
    upstream: UpstreamRequest,
    timeouts: UpstreamTimeouts | undefined,
  ): Dispatcher.DispatchOptions {
    const { origin, path } = targetOf(upstream.url);
    return {
      origin,
      path,
      method: upstream.method as Dispatcher.HttpMethod,
      headers: upstream.headers,
      body: upstream.body,
      // The channel's own, else RELAY_TIMEOUT's (first byte; 0 = no limit) and STREAMING_TIMEOUT's (idle).
      headersTimeout: timeouts?.firstByteTimeoutMs || this.config.relayTimeoutSeconds * 1000,
      bodyTimeout: timeouts?.idleTimeoutMs || this.config.streamingTimeoutSeconds * 1000,
    };
  }

  async close(): Promise<void> {
    await Promise.all([this.agent, ...this.agentsByConnectTimeout.values()].map((agent) => agent.close()));
  }
}
