import { describe, expect, it } from 'vitest';
import { registerEventLoopDelay, takeEventLoopDelayWindow } from './event-loop-delay.ts';
import { MetricRegistry } from './metric-registry.ts';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function blockFor(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // Busy: the loop cannot run its timers.
  }
}

function valuesOf(text: string): Record<string, number> {
  const values: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const match = /^(nodejs_eventloop_lag_\w+_seconds) (\S+)$/.exec(line);
    if (match) values[match[1]!] = Number(match[2]);
  }
  return values;
}

describe('event-loop delay', () => {
  it('reports a blocked loop in the window of the next scrape, then starts a new window', async () => {
    const registry = new MetricRegistry();
    registerEventLoopDelay(registry);
    takeEventLoopDelayWindow();
    await wait(30);
    blockFor(200);
    await wait(30);
    const blocked = valuesOf(registry.render());
    expect(Object.keys(blocked).sort()).toEqual(
      ['max', 'mean', 'min', 'p50', 'p90', 'p99', 'stddev'].map(
        (field) => `nodejs_eventloop_lag_${field}_seconds`,
      ),
    );
    expect(blocked.nodejs_eventloop_lag_max_seconds).toBeGreaterThan(0.19);
    expect(blocked.nodejs_eventloop_lag_p99_seconds).toBeGreaterThan(0.19);
    // Every gauge of one scrape describes the same window.
    expect(blocked.nodejs_eventloop_lag_min_seconds).toBeLessThanOrEqual(
      blocked.nodejs_eventloop_lag_p50_seconds!,
    );
    expect(blocked.nodejs_eventloop_lag_mean_seconds).toBeGreaterThan(
      blocked.nodejs_eventloop_lag_min_seconds!,
    );

    await wait(60);
    const quiet = valuesOf(registry.render());
    expect(quiet.nodejs_eventloop_lag_max_seconds).toBeGreaterThan(0);
    expect(quiet.nodejs_eventloop_lag_max_seconds).toBeLessThan(0.15);
  });

  it('reports zeros for a window in which nothing was sampled', () => {
    takeEventLoopDelayWindow();
    expect(takeEventLoopDelayWindow()).toEqual({
      min: 0,
      max: 0,
      mean: 0,
      stddev: 0,
      p50: 0,
      p90: 0,
      p99: 0,
    });
  });
});
