/**
 * Streamed chat, measured with undici (autocannon only sees whole responses): an open-loop
 * arrival of new streams at a fixed rate, each timed to its first body byte and to its end; and
 * the concurrency test, many simultaneous slow streams opened in quick batches and held open.
 * A stream counts as successful only when its body ends with `data: [DONE]`.
 */
import { Agent, request } from 'undici';
import { startAtRate } from './arrivals.ts';
import { LatencyRecorder } from './latency-recorder.ts';
import type { LoadJob, LoadResult } from './load-jobs.ts';

const DONE = Buffer.from('data: [DONE]');

interface StreamTiming {
  firstByteMs: number;
  totalMs: number;
}

async function oneStream(
  job: { url: string; headers: Record<string, string>; body: string },
  agent: Agent,
  onHeaders?: () => void,
): Promise<StreamTiming> {
  const started = performance.now();
  const response = await request(job.url, {
    method: 'POST',
    headers: job.headers,
    body: job.body,
    dispatcher: agent,
  });
  if (response.statusCode !== 200) {
    const text = await response.body.text();
    throw new Error(`HTTP ${response.statusCode}: ${text.slice(0, 200)}`);
  }
  onHeaders?.();
  let firstByteMs = -1;
  let tail: Buffer = Buffer.alloc(0);
  for await (const chunk of response.body) {
    if (firstByteMs < 0) firstByteMs = performance.now() - started;
    const bytes = chunk as Buffer;
    tail =
      bytes.length >= 64 ? bytes.subarray(bytes.length - 64) : Buffer.concat([tail, bytes]).subarray(-64);
  }
  const totalMs = performance.now() - started;
  if (!tail.includes(DONE)) throw new Error('stream ended without data: [DONE]');
  return { firstByteMs, totalMs };
}

export async function runStreamRate(job: Extract<LoadJob, { kind: 'streams' }>): Promise<LoadResult> {
  const agent = new Agent({ keepAliveTimeout: 30_000, pipelining: 1 });
  const latency = new LatencyRecorder();
  const firstByte = new LatencyRecorder();
  let failed = 0;
  let firstFailure: string | undefined;
  const maxInFlight = 2_000;
  const started = performance.now();
  await startAtRate({
    rate: job.rate,
    durationSeconds: job.durationSeconds,
    maxInFlight,
    start: () =>
      oneStream(job, agent).then(
        (timing) => {
          latency.record(timing.totalMs);
          firstByte.record(timing.firstByteMs);
        },
        (error: unknown) => {
          failed++;
          firstFailure ??= error instanceof Error ? error.message : String(error);
        },
      ),
    refuse: () => {
      failed++;
      firstFailure ??= `more than ${maxInFlight} streams in flight`;
    },
  });
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  return {
    ok: latency.count,
    failed,
    ...(firstFailure ? { firstFailure } : {}),
    seconds,
    // Streams started per second of the arrival window (the last ones finish after it).
    rps: latency.count / job.durationSeconds,
    latency: latency.summary(),
    firstByte: firstByte.summary(),
  };
}

export async function runConcurrent(job: Extract<LoadJob, { kind: 'concurrent' }>): Promise<LoadResult> {
  const agent = new Agent({
    keepAliveTimeout: 5_000,
    pipelining: 1,
    headersTimeout: job.timeoutSeconds * 1000,
    bodyTimeout: job.timeoutSeconds * 1000,
    connect: { timeout: 30_000 },
  });
  const latency = new LatencyRecorder();
  const firstByte = new LatencyRecorder();
  let failed = 0;
  let firstFailure: string | undefined;
  let opened = 0;
  let open = 0;
  let peakOpen = 0;
  let allOpenAfterMs: number | null = null;
  const started = performance.now();
  const batch = 250;
  const runs: Promise<void>[] = [];
  for (let i = 0; i < job.count; i += batch) {
    for (let j = i; j < Math.min(job.count, i + batch); j++) {
      let counted = false;
      runs.push(
        oneStream(job, agent, () => {
          counted = true;
          opened++;
          open++;
          if (open > peakOpen) peakOpen = open;
          if (opened === job.count) allOpenAfterMs = performance.now() - started;
        })
          .then((timing) => {
            latency.record(timing.totalMs);
            firstByte.record(timing.firstByteMs);
          })
          .catch((error: unknown) => {
            failed++;
            firstFailure ??= error instanceof Error ? error.message : String(error);
          })
          .finally(() => {
            if (counted) open--;
          }),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  await Promise.all(runs);
  const seconds = (performance.now() - started) / 1000;
  await agent.destroy();
  return {
    ok: latency.count,
    failed,
    ...(firstFailure ? { firstFailure } : {}),
    seconds,
    rps: latency.count / seconds,
    latency: latency.summary(),
    firstByte: firstByte.summary(),
    opened,
    peakOpen,
    allOpenAfterMs,
  };
}
