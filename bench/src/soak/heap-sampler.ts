import { heapUsedOf, type Sample } from './soak-series.ts';

/**
 * Polls a Switchyard node's /metrics (loopback needs no token) for the V8 heap in use, every
 * `intervalMs`, until stopped. A failed poll is skipped: the soak measures the relay, and one
 * missing sample does not change a slope.
 */
export function sampleHeap(metricsUrl: string, intervalMs = 2_000) {
  const samples: Sample[] = [];
  let stopped = false;
  const poll = async () => {
    try {
      const response = await fetch(metricsUrl);
      const bytes = heapUsedOf(await response.text());
      if (bytes !== undefined) samples.push({ at: Date.now(), bytes });
    } catch {
      // skipped
    }
  };
  const timer = setInterval(() => {
    if (!stopped) void poll();
  }, intervalMs);
  void poll();
  return {
    stop(): Sample[] {
      stopped = true;
      clearInterval(timer);
      return samples;
    },
  };
}
