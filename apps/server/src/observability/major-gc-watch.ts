import { constants, PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

/** What the watch has seen: full (mark-compact) collections so far and the heap right after the last. */
export interface MajorGcReading {
  readonly count: number;
  /** V8 heap in use, bytes, read as the last full collection was reported (0 before the first). */
  readonly heapUsedAfter: number;
}

const reading = { count: 0, heapUsedAfter: 0 };
let observer: PerformanceObserver | undefined;

/**
 * Starts (once per process) watching V8's full collections and returns the live reading. The heap
 * in use right after a full collection is what the program keeps: sampled at a fixed rhythm
 * instead, the heap also holds whatever garbage has piled up since, and a window in which no full
 * collection ran looks like growth. Scavenges (young generation) are not counted.
 */
export function watchMajorGc(): MajorGcReading {
  if (!observer) {
    observer = new PerformanceObserver((list) => {
      let major = 0;
      for (const entry of list.getEntries()) {
        const kind = (entry as { detail?: { kind?: number } }).detail?.kind;
        if (kind === constants.NODE_PERFORMANCE_GC_MAJOR) major++;
      }
      if (major === 0) return;
      reading.count += major;
      reading.heapUsedAfter = getHeapStatistics().used_heap_size;
    });
    observer.observe({ entryTypes: ['gc'] });
  }
  return reading;
}
