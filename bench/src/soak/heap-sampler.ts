import { heapUsedOf, majorGcOf, type Sample } from './soak-series.ts';

/** What the sampler saw: the heap in use at each poll, and the heap after each new full collection. */
export interface HeapSeries {
  heapUsed: Sample[];
  /** One sample per poll that found new full collections since the previous one. */
  afterMajorGc: Sample[];
}

/**
 * Polls a Switchyard node's /metrics (loopback needs no token) every `intervalMs`, until stopped,
 * for the V8 heap in use and for the heap read right after the latest full collection (kept only
 * when a new one ran since the previous poll). A failed poll is skipped: the soak measures the
 * relay, and one missing sample does not change a slope.
 */
export function sampleHeap(metricsUrl: string, intervalMs = 2_000) {
  const series: HeapSeries = { heapUsed: [], afterMajorGc: [] };
  let lastMajorCount: number | undefined;
  let stopped = false;
  const poll = async () => {
    try {
      const text = await (await fetch(metricsUrl)).text();
      const at = Date.now();
      const bytes = heapUsedOf(text);
      if (bytes !== undefined) series.heapUsed.push({ at, bytes });
      const major = majorGcOf(text);
      if (major) {
        if (lastMajorCount !== undefined && major.count > lastMajorCount && major.heapUsedAfter > 0) {
          series.afterMajorGc.push({ at, bytes: major.heapUsedAfter });
        }
        lastMajorCount = major.count;
      }
    } catch {
      // skipped
    }
  };
  const timer = setInterval(() => {
    if (!stopped) void poll();
  }, intervalMs);
  void poll();
  return {
    stop(): HeapSeries {
      stopped = true;
      clearInterval(timer);
      return series;
    },
  };
}
