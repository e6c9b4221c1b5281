/**
 * Non-stream load through autocannon, recording every response time from autocannon's `response`
 * events (autocannon's own histogram keeps whole milliseconds only, too coarse for added latency).
 *
 * Fixed rates: autocannon's rate limit lets each connection send its quota for the second
 * back-to-back and then wait for the next second, so one instance at 1,000 req/s hits the target
 * with one burst per second. To approximate an even arrival rate, the job runs up to 100 small
 * autocannon instances (4 connections, 20 req/s each) with their one-second windows staggered
 * evenly across the second (instance i starts at i/N s): a short, 4-wide run of requests starts
 * every 1/N s.
 */
import autocannon, { type AutocannonOptions, type AutocannonResult } from 'autocannon';
import { LatencyRecorder } from './latency-recorder.ts';
import type { LoadJob, LoadResult } from './load-jobs.ts';

interface Tally {
  recorder: LatencyRecorder;
  ok: number;
  failed: number;
  firstFailure?: string;
}

function runInstance(options: AutocannonOptions, tally: Tally): Promise<AutocannonResult> {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ method: 'POST', timeout: 10, ...options }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) {
        tally.ok++;
        tally.recorder.record(responseTime);
      } else {
        tally.failed++;
        tally.firstFailure ??= `HTTP ${statusCode}`;
      }
    });
    instance.on('reqError', (error) => {
      tally.failed++;
      tally.firstFailure ??= error.message;
    });
  });
}

function finish(tally: Tally, seconds: number, results: AutocannonResult[]): LoadResult {
  const timeouts = results.reduce((sum, result) => sum + result.timeouts, 0);
  return {
    ok: tally.ok,
    failed: tally.failed + timeouts,
    ...(tally.firstFailure
      ? { firstFailure: tally.firstFailure }
      : timeouts
        ? { firstFailure: 'timeout' }
        : {}),
    seconds,
    rps: tally.ok / seconds,
    latency: tally.recorder.summary(),
  };
}

/**
 * Staggered instances for a rate: 20 req/s each, between 10 and 100 (an autocannon instance costs
 * a few MB and milliseconds to create), with 4 connections of ~5 req/s each, so a target keeps up
 * while its latency stays under ~200 ms.
 */
export function instancesFor(rate: number): number {
  return Math.min(100, Math.max(10, Math.ceil(rate / 20)));
}

const CONNECTIONS_PER_INSTANCE = 4;

export async function runPaced(job: Extract<LoadJob, { kind: 'paced' }>): Promise<LoadResult> {
  const instances = Math.min(instancesFor(job.rate), job.rate);
  const tally: Tally = { recorder: new LatencyRecorder(), ok: 0, failed: 0 };
  const runs: Promise<AutocannonResult>[] = [];
  for (let i = 0; i < instances; i++) {
    const share = Math.floor(job.rate / instances) + (i < job.rate % instances ? 1 : 0);
    const options: AutocannonOptions = {
      url: job.url,
      headers: job.headers,
      body: job.body,
      connections: Math.min(CONNECTIONS_PER_INSTANCE, share),
      overallRate: share,
      duration: job.durationSeconds,
      ignoreCoordinatedOmission: true,
    };
    runs.push(
      new Promise<void>((resolve) => setTimeout(resolve, (i * 1000) / instances)).then(() =>
        runInstance(options, tally),
      ),
    );
  }
  const results = await Promise.all(runs);
  return finish(tally, job.durationSeconds, results);
}

export async function runSaturation(job: Extract<LoadJob, { kind: 'saturate' }>): Promise<LoadResult> {
  const tally: Tally = { recorder: new LatencyRecorder(), ok: 0, failed: 0 };
  const result = await runInstance(
    {
      url: job.url,
      headers: job.headers,
      body: job.body,
      connections: job.connections,
      duration: job.durationSeconds,
    },
    tally,
  );
  return finish(tally, job.durationSeconds, [result]);
}
