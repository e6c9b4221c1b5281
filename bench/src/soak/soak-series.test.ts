import { describe, expect, it } from 'vitest';
import {
  eventLoopDelayOf,
  heapUsedOf,
  majorGcOf,
  medianSlopeMbPerMinute,
  perMinuteMb,
  slopeMbPerMinute,
  windowFloors,
} from './soak-series.ts';

const MB = 2 ** 20;

describe('soak series', () => {
  it('finds the slope of a steadily growing series and ignores the warm-up fifth', () => {
    const growing = Array.from({ length: 61 }, (_, i) => ({ at: i * 10_000, bytes: (100 + i) * MB }));
    // One MB every 10 s is 6 MB per minute.
    expect(slopeMbPerMinute(growing)).toBeCloseTo(6, 5);
    const warmUpThenFlat = growing.map((sample, i) => ({ ...sample, bytes: (i < 10 ? i * 50 : 500) * MB }));
    expect(slopeMbPerMinute(warmUpThenFlat)).toBeCloseTo(0, 5);
  });

  it('takes the lowest sample of each window, so collection saw-teeth do not read as growth', () => {
    const sawTooth = Array.from({ length: 120 }, (_, i) => ({
      at: i * 5_000,
      bytes: (50 + (i % 6) * 30) * MB,
    }));
    const floors = windowFloors(sawTooth, 60_000);
    expect(floors).toHaveLength(10);
    expect(floors.every((floor) => floor.bytes === 50 * MB)).toBe(true);
    expect(slopeMbPerMinute(floors)).toBeCloseTo(0, 5);
  });

  it('keeps the trend and shrugs off a late outlier with the median of pairwise slopes', () => {
    const at = (i: number) => i * 30_000;
    // Flat at 62–65 MB with two windows that saw no full collection (96, 87 MB) near the end.
    const flat = [97, 90, 78, 70, 65, 63, 62, 64, 63, 62, 64, 62, 65, 96, 64, 63, 62, 64, 87, 63];
    const floors = flat.map((mb, i) => ({ at: at(i), bytes: mb * MB }));
    expect(slopeMbPerMinute(floors)).toBeGreaterThan(0.5);
    expect(Math.abs(medianSlopeMbPerMinute(floors))).toBeLessThan(0.1);
    // A real leak of 1 MB per minute stays visible, outliers or not.
    const leaking = floors.map((floor, i) => ({ ...floor, bytes: floor.bytes + (i / 2) * MB }));
    expect(medianSlopeMbPerMinute(leaking)).toBeCloseTo(1, 0);
    expect(medianSlopeMbPerMinute([])).toBe(0);
  });

  it('reports the sample nearest the end of each minute in MB', () => {
    const samples = [0, 30_000, 59_000, 61_000, 119_000].map((at, i) => ({ at, bytes: (i + 1) * MB }));
    expect(perMinuteMb(samples)).toEqual([3, 5]);
    expect(perMinuteMb([])).toEqual([]);
  });

  it('reads the heap gauge from Prometheus text', () => {
    const text =
      '# TYPE nodejs_heap_used_bytes gauge\nnodejs_heap_used_bytes 123456\nprocess_resident_memory_bytes 9\n';
    expect(heapUsedOf(text)).toBe(123456);
    expect(heapUsedOf('process_resident_memory_bytes 9\n')).toBeUndefined();
  });

  it('reads the full-collection count and the heap after the latest one', () => {
    const text = [
      '# TYPE nodejs_gc_major_total counter',
      'nodejs_gc_major_total 17',
      '# TYPE nodejs_heap_used_after_major_gc_bytes gauge',
      'nodejs_heap_used_after_major_gc_bytes 6.5e+7',
      '',
    ].join('\n');
    expect(majorGcOf(text)).toEqual({ count: 17, heapUsedAfter: 65_000_000 });
    expect(majorGcOf('nodejs_gc_major_total 17\n')).toBeUndefined();
  });

  it('reads the event-loop delay beyond the monitor interval, in milliseconds', () => {
    const text = [
      'nodejs_eventloop_lag_max_seconds 0.04',
      'nodejs_eventloop_lag_p99_seconds 0.0165',
      'nodejs_eventloop_lag_p50_seconds 0.0101',
      '',
    ].join('\n');
    const delay = eventLoopDelayOf(text)!;
    expect(delay.p99Ms).toBeCloseTo(6.5, 6);
    expect(delay.maxMs).toBeCloseTo(30, 6);
    // A reading under the 10 ms interval (the timer fired early) is no delay.
    expect(
      eventLoopDelayOf('nodejs_eventloop_lag_max_seconds 0.009\nnodejs_eventloop_lag_p99_seconds 0.0091\n'),
    ).toEqual({
      p99Ms: 0,
      maxMs: 0,
    });
    expect(eventLoopDelayOf('nodejs_eventloop_lag_max_seconds 0.04\n')).toBeUndefined();
  });
});
