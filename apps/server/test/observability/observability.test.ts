import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config/env.ts';
import { ADDED_TIME_HEADER } from '../../src/observability/added-time.ts';
import { metricsOf } from '../../src/observability/gateway-metrics.ts';
import { PROMETHEUS_CONTENT_TYPE } from '../../src/observability/metric-registry.ts';
import { buildTestApp, type TestApp } from '../helper.ts';
import { parseExposition, sampleValue } from './exposition-format.ts';

const METRICS_TOKEN = 'metrics-token-0123456789';

describe('observability endpoints (loopback access)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t.close());

  it('answers /healthz with 200 {"status":"ok"} and the added-time header', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    expect(response.headers[ADDED_TIME_HEADER.toLowerCase()]).toMatch(/^\d+\.\d{2}$/);
  });

  it('answers /readyz with every check ok (no Redis configured)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      status: 'ok',
      checks: { database: 'ok', log_database: 'skipped', redis: 'skipped', shutdown: 'ok' },
    });
  });

  it('sets the added-time header on console answers, refusals and unknown routes', async () => {
    for (const url of ['/api/status', '/api/user/self', '/api/nowhere']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(Number(response.headers[ADDED_TIME_HEADER.toLowerCase()]), url).toBeGreaterThanOrEqual(0);
    }
  });

  it('serves well-formed Prometheus text that counts requests by family and status', async () => {
    const before = parseExposition((await t.app.inject({ method: 'GET', url: '/metrics' })).body);
    const okLabels = { family: 'api', method: 'GET', status: '200' };
    const refusedLabels = { family: 'api', method: 'GET', status: '401' };
    const okBefore = sampleValue(before, 'switchyard_http_requests_total', okLabels) ?? 0;
    const refusedBefore = sampleValue(before, 'switchyard_http_requests_total', refusedLabels) ?? 0;
    await t.app.inject({ method: 'GET', url: '/api/status' });
    await t.app.inject({ method: 'GET', url: '/api/status' });
    await t.app.inject({ method: 'GET', url: '/api/user/self' });

    const response = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe(PROMETHEUS_CONTENT_TYPE);
    const samples = parseExposition(response.body);
    expect(sampleValue(samples, 'switchyard_http_requests_total', okLabels)).toBe(okBefore + 2);
    expect(sampleValue(samples, 'switchyard_http_requests_total', refusedLabels)).toBe(refusedBefore + 1);
    const apiCount = sampleValue(samples, 'switchyard_http_request_duration_seconds_count', {
      family: 'api',
    });
    expect(apiCount).toBeGreaterThanOrEqual(okBefore + 3);
    expect(sampleValue(samples, 'switchyard_relay_active_streams')).toBe(0);
    expect(sampleValue(samples, 'switchyard_quota_charged_total')).toBe(0);
    expect(sampleValue(samples, 'switchyard_build_info', { version: t.app.services.version })).toBe(1);
    expect(sampleValue(samples, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    // Full collections are exported with the heap read after the latest (0 before any has run).
    const majorCollections = sampleValue(samples, 'nodejs_gc_major_total');
    const heapAfterMajor = sampleValue(samples, 'nodejs_heap_used_after_major_gc_bytes');
    expect(majorCollections).toBeGreaterThanOrEqual(0);
    if (majorCollections! > 0) expect(heapAfterMajor).toBeGreaterThan(0);
    else expect(heapAfterMajor).toBe(0);
  });

  it('exports what the relay reports through metricsOf(services)', async () => {
    const metrics = metricsOf(t.app.services);
    metrics.upstreamResponse(7, 200);
    metrics.upstreamResponse(7, 200);
    metrics.upstreamResponse(7, 502);
    metrics.upstreamResponse(8, 0);
    metrics.quotaCharged(1500);
    metrics.quotaCharged(25);
    metrics.quotaCharged(-3);
    metrics.quotaCharged(1.5);
    metrics.streamOpened();
    metrics.streamOpened();
    metrics.streamClosed();
    metrics.addedLatency(2);
    metrics.addedLatency(40);
    metrics.cacheLookup('token', true);
    metrics.cacheLookup('token', true);
    metrics.cacheLookup('token', false);
    metrics.cacheLookup('Bad Name', true);
    const samples = parseExposition((await t.app.inject({ method: 'GET', url: '/metrics' })).body);
    const upstream = (channel: string, status: string) =>
      sampleValue(samples, 'switchyard_upstream_responses_total', { channel_id: channel, status });
    expect([upstream('7', '200'), upstream('7', '502'), upstream('8', '0')]).toEqual([2, 1, 1]);
    expect(sampleValue(samples, 'switchyard_quota_charged_total')).toBe(1525);
    expect(sampleValue(samples, 'switchyard_relay_active_streams')).toBe(1);
    const added = (le: string) =>
      sampleValue(samples, 'switchyard_relay_added_latency_seconds_bucket', { le });
    expect([added('0.0025'), added('0.025'), added('0.05'), added('+Inf')]).toEqual([1, 1, 2, 2]);
    expect(sampleValue(samples, 'switchyard_relay_added_latency_seconds_sum')).toBeCloseTo(0.042, 6);
    const lookups = (cache: string, result: string) =>
      sampleValue(samples, 'switchyard_cache_lookups_total', { cache, result });
    expect([lookups('token', 'hit'), lookups('token', 'miss'), lookups('other', 'hit')]).toEqual([2, 1, 1]);
    metrics.streamClosed();
    metrics.streamClosed();
    expect(metrics.activeStreams.get()).toBe(0);
  });

  it('keeps one registry per app', async () => {
    const other = await buildTestApp();
    try {
      metricsOf(other.app.services).quotaCharged(999);
      expect(metricsOf(t.app.services).quotaChargedTotal.get()).toBe(1525);
    } finally {
      await other.close();
    }
  });

  it('hides /metrics from other addresses and from proxied loopback requests', async () => {
    const remote = await t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '10.1.2.3' });
    expect(remote.statusCode).toBe(404);
    expect(remote.body).not.toContain('switchyard_');
    const proxied = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(proxied.statusCode).toBe(404);
  });
});

describe('observability endpoints with METRICS_TOKEN', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ METRICS_TOKEN });
  });
  afterAll(async () => t.close());

  it('requires the bearer token, from any address including loopback', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(missing.statusCode).toBe(401);
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}x` },
    });
    expect(wrong.statusCode).toBe(401);
    const right = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      remoteAddress: '198.51.100.4',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(right.statusCode).toBe(200);
    parseExposition(right.body);
  });

  it('refuses a short token at start-up', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short' })).toThrow(ConfigError);
    expect(loadConfig({}).metricsToken).toBeNull();
  });
});
