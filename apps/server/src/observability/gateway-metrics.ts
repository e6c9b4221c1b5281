import type { AppServices } from '../app-services.ts';
import { VERSION } from '../version.ts';
import { registerEventLoopDelay } from './event-loop-delay.ts';
import { watchMajorGc } from './major-gc-watch.ts';
import { Counter, Gauge, Histogram, MetricRegistry } from './metric-registry.ts';

/**
 * The gateway's metrics, one instance per app (see `metricsOf`), served by GET /metrics.
 *
 * API for the relay and other callers (all cheap, synchronous, never throw):
 * - `metricsOf(request.server.services)` → this app's `GatewayMetrics`;
 * - `upstreamResponse(channelId, status)`: one upstream answer per attempt (status 0 = no answer:
 *   connect error, timeout or abort before headers) → `switchyard_upstream_responses_total`;
 * - `quotaCharged(quota)`: the final quota settled for one request (integer ≥ 0; refunds are not
 *   charges) → `switchyard_quota_charged_total`;
 * - `streamOpened()` / `streamClosed()`: around every streamed relay response (call closed exactly
 *   once, also on abort) → `switchyard_relay_active_streams`;
 * - `addedLatency(ms)`: the gateway's own time for one relay request (see added-time.ts) →
 *   `switchyard_relay_added_latency_seconds`;
 * - `logExportOpened()` / `logExportClosed()`: around each log CSV export (closed exactly once,
 *   also when the client leaves) → `switchyard_log_exports_active`; `logExportRows(n)`: rows one
 *   export batch read → `switchyard_log_export_rows_total`;
 * - `cacheLookup(name, hit)`: one lookup in a named in-memory cache (`token`, `channel`, `user`,
 *   ...; lowercase, else counted as `other`) → `switchyard_cache_lookups_total{cache,result}`.
 * HTTP request counts and latencies are recorded by the hooks in request-metrics.ts.
 */
export class GatewayMetrics {
  readonly registry = new MetricRegistry();
  readonly httpRequests = this.registry.register(
    new Counter(
      'switchyard_http_requests_total',
      'HTTP requests answered, by route family, method and status.',
      ['family', 'method', 'status'],
    ),
  );
  readonly httpDuration = this.registry.register(
    new Histogram(
      'switchyard_http_request_duration_seconds',
      'Time from receiving a request to the end of its response, by route family.',
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300],
      ['family'],
    ),
  );
  readonly addedLatencyHistogram = this.registry
    .register(
      new Histogram(
        'switchyard_relay_added_latency_seconds',
        'Time the gateway itself adds to a relay request (total time minus time waiting for the upstream).',
        [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      ),
    )
    .init();
  readonly upstreamResponses = this.registry.register(
    new Counter(
      'switchyard_upstream_responses_total',
      'Upstream answers by channel id and HTTP status (0 = none).',
      ['channel_id', 'status'],
    ),
  );
  readonly quotaChargedTotal = this.registry
    .register(new Counter('switchyard_quota_charged_total', 'Quota charged to users for relay requests.'))
    .init();
  readonly activeStreams = this.registry
    .register(new Gauge('switchyard_relay_active_streams', 'Streamed relay responses currently open.'))
    .init();
  readonly logExportsActive = this.registry
    .register(new Gauge('switchyard_log_exports_active', 'Log CSV exports currently streaming.'))
    .init();
  readonly logExportRowsTotal = this.registry
    .register(new Counter('switchyard_log_export_rows_total', 'Log rows read by CSV exports.'))
    .init();
  readonly cacheLookups = this.registry.register(
    new Counter(
      'switchyard_cache_lookups_total',
      'In-memory cache lookups by cache and result (hit or miss).',
      ['cache', 'result'],
    ),
  );

  constructor(startTimeSeconds = Math.floor(Date.now() / 1000)) {
    this.registry
      .register(new Gauge('switchyard_build_info', 'The running Switchyard version (always 1).', ['version']))
      .set({ version: VERSION }, 1);
    this.registry
      .register(
        new Gauge('process_start_time_seconds', 'Start time of the process since the Unix epoch, seconds.'),
      )
      .set(undefined, startTimeSeconds);
    this.registry.register(
      new Gauge('process_resident_memory_bytes', 'Resident memory size, bytes.', [], (gauge) =>
        gauge.set(undefined, process.memoryUsage.rss()),
      ),
    );
    this.registry.register(
      new Gauge('nodejs_heap_used_bytes', 'V8 heap in use, bytes.', [], (gauge) =>
        gauge.set(undefined, process.memoryUsage().heapUsed),
      ),
    );
    const majorGc = watchMajorGc();
    this.registry.register(
      new Counter(
        'nodejs_gc_major_total',
        'Full (mark-compact) garbage collections since start.',
        [],
        (counter) => counter.inc(undefined, majorGc.count - counter.get()),
      ),
    );
    this.registry.register(
      new Gauge(
        'nodejs_heap_used_after_major_gc_bytes',
        'V8 heap in use right after the latest full collection, bytes (0 before the first): what the process keeps.',
        [],
        (gauge) => gauge.set(undefined, majorGc.heapUsedAfter),
      ),
    );
    registerEventLoopDelay(this.registry);
  }

  /** One answered HTTP request (called by the request hooks). */
  httpRequest(family: string, method: string, status: number, seconds: number): void {
    this.httpRequests.inc({ family, method: normalizeMethod(method), status });
    this.httpDuration.observe({ family }, seconds);
  }

  upstreamResponse(channelId: number, status: number): void {
    const code = Number.isInteger(status) && status >= 0 && status < 1000 ? status : 0;
    this.upstreamResponses.inc({ channel_id: Number.isInteger(channelId) ? channelId : 0, status: code });
  }

  quotaCharged(quota: number): void {
    if (Number.isSafeInteger(quota) && quota > 0) this.quotaChargedTotal.inc(undefined, quota);
  }

  streamOpened(): void {
    this.activeStreams.inc();
  }

  streamClosed(): void {
    if (this.activeStreams.get() > 0) this.activeStreams.dec();
  }

  logExportOpened(): void {
    this.logExportsActive.inc();
  }

  logExportClosed(): void {
    if (this.logExportsActive.get() > 0) this.logExportsActive.dec();
  }

  logExportRows(rows: number): void {
    if (Number.isSafeInteger(rows) && rows > 0) this.logExportRowsTotal.inc(undefined, rows);
  }

  addedLatency(ms: number): void {
    if (Number.isFinite(ms) && ms >= 0) this.addedLatencyHistogram.observe(undefined, ms / 1000);
  }

  cacheLookup(name: string, hit: boolean): void {
    let cache = this.cacheNames.get(name);
    if (cache === undefined) {
      // Names are the code's own constants: checked once each (a few dozen at most are kept).
      cache = /^[a-z][a-z0-9_]{0,31}$/.test(name) ? name : 'other';
      if (this.cacheNames.size < 64) this.cacheNames.set(name, cache);
    }
    this.cacheLookups.inc({ cache, result: hit ? 'hit' : 'miss' });
  }

  /** Cache names as counted (`other` when not a valid label value), by the name given. */
  private readonly cacheNames = new Map<string, string>();

  /** The exposition text of every metric. */
  render(): string {
    return this.registry.render();
  }
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

function normalizeMethod(method: string): string {
  return METHODS.has(method) ? method : 'OTHER';
}

const instances = new WeakMap<AppServices, GatewayMetrics>();

/** The metrics of the app owning these services (created on first use; one per app, not per process). */
export function metricsOf(services: AppServices): GatewayMetrics {
  let metrics = instances.get(services);
  if (!metrics) {
    metrics = new GatewayMetrics(services.startTime);
    instances.set(services, metrics);
  }
  return metrics;
}
