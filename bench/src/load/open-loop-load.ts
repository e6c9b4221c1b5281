/**
 * Non-stream load at a fixed rate with evenly spaced arrivals (open loop, constant arrival rate,
 * as wrk2 or k6's constant-arrival-rate executor send): request i is due at i/rate seconds, and a
 * 1 ms timer sends every request that has come due, each on a free keep-alive connection (undici,
 * no cap on connections), whether or not earlier ones have answered: a slow target gets more
 * requests in flight, never fewer arrivals (no coordinated omission). A request is timed from the
 * moment it is sent to the end of its body; the timer's own lateness (up to ~1 ms) moves the send,
 * not the measured time.
 *
 * autocannon's rate limit cannot do this: each connection sends its share of a second
 * back-to-back, so one instance at 1,000 req/s sends one burst per second, and even 50 staggered
 * instances of 4 connections send 4-wide runs of 5 sequential requests (bench/src/load/
 * autocannon-load.ts, still used with BENCH_PACER=autocannon and for the closed-loop saturation).
 */
import { Agent, request } from 'undici';
import { LatencyRecorder } from './latency-recorder.ts';
import type { LoadJob, LoadResult } from './load-jobs.ts';

/** A response that has not ended after this long counts as failed (autocannon's timeout too). */
const TIMEOUT_MS = 10_000;
const MAX_IN_FLIGHT = 5_000;

export async function runOpenLoop(job: Extract<LoadJob, { kind: 'paced' }>): Promise<LoadResult> {
  const agent = new Agent({
    keepAliveTimeout: 30_000,
    pipelining: 1,
    headersTimeout: TIMEOUT_MS,
    bodyTimeout: TIMEOUT_MS,
  });
  const recorder = new LatencyRecorder();
  let ok = 0;
  let failed = 0;
  let firstFailure: string | undefined;
  const fail = (reason: string) => {
    failed++;
    firstFailure ??= reason;
  };
  const total = Math.round(job.rate * job.durationSeconds);
  const intervalMs = 1000 / job.rate;
  const inFlight = new Set<Promise<void>>();
  const send = () => {
    const sentAt = performance.now();
    const run = request(job.url, { method: 'POST', headers: job.headers, body: job.body, dispatcher: agent })
      .then(async (response) => {
        await response.body.arrayBuffer();
        if (response.statusCode >= 200 && response.statusCode < 300) {
          ok++;
          recorder.record(performance.now() - sentAt);
        } else fail(`HTTP ${response.statusCode}`);
      })
      .catch((error: unknown) => fail(error instanceof Error ? error.message : String(error)))
      .finally(() => inFlight.delete(run));
    inFlight.add(run);
  };
  const started = performance.now();
  let issued = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const now = performance.now();
      while (issued < total) {
        if (started + issued * intervalMs > now) break;
        issued++;
        if (inFlight.size >= MAX_IN_FLIGHT) fail(`more than ${MAX_IN_FLIGHT} requests in flight`);
        else send();
      }
      if (issued >= total) resolve();
      else setTimeout(tick, 1);
    };
    tick();
  });
  await Promise.all(inFlight);
  await agent.close();
  return {
    ok,
    failed,
    ...(firstFailure ? { firstFailure } : {}),
    seconds: job.durationSeconds,
    rps: ok / job.durationSeconds,
    latency: recorder.summary(),
  };
}
