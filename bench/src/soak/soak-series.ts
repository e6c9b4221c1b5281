/**
 * Pure helpers for the soak verdict. RSS swings by a hundred MB with garbage collection, so its
 * slope over ten minutes says little; the V8 heap's floor (the lowest heap-used sample in each
 * window, i.e. what survived the last collection) grows only when something is kept.
 */

/** One reading: milliseconds since an arbitrary origin and a size in bytes. */
export interface Sample {
  at: number;
  bytes: number;
}

/** Least-squares slope in MB per minute over the samples after the first fifth (warm-up). */
export function slopeMbPerMinute(samples: Sample[]): number {
  const kept = samples.slice(Math.floor(samples.length / 5));
  if (kept.length < 2) return 0;
  const origin = kept[0]!.at;
  const xs = kept.map((sample) => (sample.at - origin) / 60_000);
  const ys = kept.map((sample) => sample.bytes / 2 ** 20);
  const meanX = xs.reduce((a, b) => a + b, 0) / xs.length;
  const meanY = ys.reduce((a, b) => a + b, 0) / ys.length;
  let numerator = 0;
  let denominator = 0;
  for (let i = 0; i < xs.length; i++) {
    numerator += (xs[i]! - meanX) * (ys[i]! - meanY);
    denominator += (xs[i]! - meanX) ** 2;
  }
  return denominator === 0 ? 0 : numerator / denominator;
}

/**
 * Theil–Sen slope in MB per minute over the samples after the first fifth: the median of the
 * slopes between every pair of samples. A window in which no full collection ran leaves a high
 * floor now and then; one such outlier near the end tilts a least-squares line, but not the
 * median of pairwise slopes, while a heap that keeps growing still shows its rate.
 */
export function medianSlopeMbPerMinute(samples: Sample[]): number {
  const kept = samples.slice(Math.floor(samples.length / 5));
  const slopes: number[] = [];
  for (let i = 0; i < kept.length; i++) {
    for (let j = i + 1; j < kept.length; j++) {
      const minutes = (kept[j]!.at - kept[i]!.at) / 60_000;
      if (minutes > 0) slopes.push((kept[j]!.bytes - kept[i]!.bytes) / 2 ** 20 / minutes);
    }
  }
  if (slopes.length === 0) return 0;
  slopes.sort((a, b) => a - b);
  const middle = Math.floor(slopes.length / 2);
  return slopes.length % 2 === 1 ? slopes[middle]! : (slopes[middle - 1]! + slopes[middle]!) / 2;
}

/** The lowest sample of each window of `windowMs` (stamped at the window's lowest point). */
export function windowFloors(samples: Sample[], windowMs: number): Sample[] {
  if (samples.length === 0) return [];
  const origin = samples[0]!.at;
  const floors: Sample[] = [];
  for (const sample of samples) {
    const index = Math.floor((sample.at - origin) / windowMs);
    const current = floors[index];
    if (current === undefined || sample.bytes < current.bytes) floors[index] = sample;
  }
  return floors.filter((floor) => floor !== undefined);
}

/** The sample closest to the end of each minute, in whole MB. */
export function perMinuteMb(samples: Sample[]): number[] {
  if (samples.length === 0) return [];
  const origin = samples[0]!.at;
  const minutes: number[] = [];
  for (const sample of samples) {
    minutes[Math.floor((sample.at - origin) / 60_000)] = Math.round(sample.bytes / 2 ** 20);
  }
  return minutes.filter((value) => value !== undefined);
}

/** The value of an unlabelled sample `name` in a Prometheus text exposition; undefined when absent. */
function sampleOf(metricsText: string, name: string): number | undefined {
  const match = new RegExp(`^${name}(?:\\{\\})?\\s+([0-9.eE+]+)\\s*$`, 'm').exec(metricsText);
  return match ? Number(match[1]) : undefined;
}

/** Reads `nodejs_heap_used_bytes` from a Prometheus text exposition; undefined when absent. */
export function heapUsedOf(metricsText: string): number | undefined {
  return sampleOf(metricsText, 'nodejs_heap_used_bytes');
}

/** The event-loop monitor's timer interval: its readings include it (prom-client's do too). */
const LOOP_DELAY_INTERVAL_MS = 10;

/**
 * Switchyard's event-loop delay over the window since the previous scrape of /metrics
 * (`nodejs_eventloop_lag_p99_seconds` and `_max_seconds`), in milliseconds beyond the monitor's
 * 10 ms timer interval (an idle loop reads ~0); undefined when absent.
 */
export function eventLoopDelayOf(metricsText: string): { p99Ms: number; maxMs: number } | undefined {
  const p99 = sampleOf(metricsText, 'nodejs_eventloop_lag_p99_seconds');
  const max = sampleOf(metricsText, 'nodejs_eventloop_lag_max_seconds');
  if (p99 === undefined || max === undefined) return undefined;
  const beyondInterval = (seconds: number) => Math.max(0, seconds * 1000 - LOOP_DELAY_INTERVAL_MS);
  return { p99Ms: beyondInterval(p99), maxMs: beyondInterval(max) };
}

/** Full collections so far and the heap right after the latest, from the exposition; undefined when absent. */
export function majorGcOf(metricsText: string): { count: number; heapUsedAfter: number } | undefined {
  const count = sampleOf(metricsText, 'nodejs_gc_major_total');
  const heapUsedAfter = sampleOf(metricsText, 'nodejs_heap_used_after_major_gc_bytes');
  return count !== undefined && heapUsedAfter !== undefined ? { count, heapUsedAfter } : undefined;
}
