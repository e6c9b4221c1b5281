/**
 * Non-stream load at a fixed rate with evenly spaced arrivals (open loop, constant arrival rate,
 * as wrk2 or k6's constant-arrival-rate executor send; the schedule is arrivals.ts): each request
 * goes out on a free keep-alive connection (undici, no cap on connections) whether or not earlier
 * ones have answered, so a slow target never gets fewer arrivals (no coordinated omission). A
 * request is timed from the moment it is sent to the end of its body; the timer's own lateness (up
 * to ~1 ms) moves the send, not the measured time.
 *
 * autocannon's rate limit cannot do this: each connection sends its share of a second
 * back-to-back, so one instance at 1,000 req/s sends one burst per second, and even 50 staggered
 * instances of 4 connections send 4-wide runs of 5 sequential requests (bench/src/load/
 * autocannon-load.ts, still used with BENCH_PACER=autocannon and for the closed-loop saturation).
 */
import { Agent, request } from 'undici';
import { startAtRate } from './arrivals.ts';
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
  await startAtRate({
    rate: job.rate,
    durationSeconds: job.durationSeconds,
    maxInFlight: MAX_IN_FLIGHT,
    start: async () => {
      const sentAt = performance.now();
      try {
        const response = await request(job.url, {
          method: 'POST',
          headers: job.headers,
          body: job.body,
          dispatcher: agent,
        });
        await response.body.arrayBuffer();
        if (response.statusCode >= 200 && response.statusCode < 300) {
          ok++;
          recorder.record(performance.now() - sentAt);
        } else fail(`HTTP ${response.statusCode}`);
      } catch (error) {
        fail(error instanceof Error ? error.message : String(error));
      }
    },
    refuse: () => fail(`more than ${MAX_IN_FLIGHT} requests in flight`),
  });
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
