import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';
import { Gauge, type MetricRegistry } from './metric-registry.ts';

/** Event-loop delay over one window between scrapes, seconds (all 0 when nothing was sampled). */
export interface EventLoopDelayWindow {
  min: number;
  max: number;
  mean: number;
  stddev: number;
  p50: number;
  p90: number;
  p99: number;
}

/** How often libuv's timer samples the delay; a stall shorter than this may go unseen. */
const RESOLUTION_MS = 10;

let histogram: IntervalHistogram | undefined;

/**
 * Reads the process's event-loop delay since the previous read and starts a new window. The
 * monitor (one per process, started on first use) is a libuv timer every 10 ms that records how
 * late it fires: time the loop spent on one task (a long synchronous piece of work, a garbage
 * collection pause) or the process spent descheduled.
 */
export function takeEventLoopDelayWindow(): EventLoopDelayWindow {
  if (!histogram) {
    histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
    histogram.enable();
  }
  const seconds = (nanoseconds: number) => nanoseconds / 1e9;
  const window =
    histogram.count === 0
      ? { min: 0, max: 0, mean: 0, stddev: 0, p50: 0, p90: 0, p99: 0 }
      : {
          min: seconds(histogram.min),
          max: seconds(histogram.max),
          mean: seconds(histogram.mean),
          stddev: seconds(histogram.stddev),
          p50: seconds(histogram.percentile(50)),
          p90: seconds(histogram.percentile(90)),
          p99: seconds(histogram.percentile(99)),
        };
  histogram.reset();
  return window;
}

const SERIES: ReadonlyArray<[keyof EventLoopDelayWindow, string]> = [
  ['min', 'Shortest'],
  ['max', 'Longest'],
  ['mean', 'Mean'],
  ['stddev', 'Standard deviation of the'],
  ['p50', 'Median'],
  ['p90', '90th percentile of the'],
  ['p99', '99th percentile of the'],
];

/**
 * Registers `nodejs_eventloop_lag_{min,max,mean,stddev,p50,p90,p99}_seconds` (the names
 * prom-client's default metrics use, so existing Node dashboards work), each over the window
 * since the previous scrape. The first gauge takes the window when the registry renders; the
 * others, rendered right after it in the same synchronous pass, report the same window.
 */
export function registerEventLoopDelay(registry: MetricRegistry): void {
  let window: EventLoopDelayWindow | undefined;
  SERIES.forEach(([field, description], index) => {
    registry.register(
      new Gauge(
        `nodejs_eventloop_lag_${field}_seconds`,
        `${description} event-loop delay since the previous scrape, seconds (sampled every ${RESOLUTION_MS} ms).`,
        [],
        (gauge) => {
          if (index === 0 || !window) window = takeEventLoopDelayWindow();
          gauge.set(undefined, window[field]);
        },
      ),
    );
  });
}
