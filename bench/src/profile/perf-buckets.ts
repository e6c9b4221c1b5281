import type { PerfSample } from './perf-samples.ts';

/**
 * Splits a target's samples the way bench/analysis.md compares targets: each main-thread sample
 * goes to the bucket of its nearest JavaScript frame (from the leaf up: the target's own code,
 * undici, Node's internals, other JavaScript), except that a leaf in SQLite counts as SQLite
 * whoever called it, and a sample with no JavaScript frame at all is libuv and native I/O. Other
 * threads (V8's helpers, the WAL checkpoint worker) are one bucket. Pure, for perf-record.ts.
 */
export const PERF_BUCKETS = [
  'own code',
  'SQLite',
  'undici',
  "Node's internals",
  'other JavaScript',
  'libuv and native, no JavaScript frame',
  'other threads',
] as const;

export type PerfBucket = (typeof PERF_BUCKETS)[number];

/** Substrings of the targets' own files: Switchyard's bundle or sources, the floors' scripts. */
export const OWN_CODE_MARKERS = ['/apps/server/', '/packages/', '/bench/src/'];

const SQLITE_LEAF = /^(sqlite3|pcache|btree|walIndex|walChecksum|vdbe)/i;

/** Where a JavaScript frame's code lives; `ownMarkers` are substrings of the target's own files. */
function bucketOfFrame(frame: string, ownMarkers: readonly string[]): PerfBucket {
  if (ownMarkers.some((marker) => frame.includes(marker))) return 'own code';
  if (frame.includes('/undici/')) return 'undici';
  if (frame.includes(' node:')) return "Node's internals";
  return 'other JavaScript';
}

export function bucketOf(sample: PerfSample, mainThread: string, ownMarkers: readonly string[]): PerfBucket {
  if (sample.thread !== mainThread) return 'other threads';
  if (SQLITE_LEAF.test(sample.frames[0] ?? '')) return 'SQLite';
  const nearest = sample.frames.find((frame) => frame.startsWith('JS:'));
  return nearest ? bucketOfFrame(nearest, ownMarkers) : 'libuv and native, no JavaScript frame';
}

/** µs per request in each bucket, in PERF_BUCKETS order (every bucket, zeros included). */
export function splitIntoBuckets(
  samples: readonly PerfSample[],
  mainThread: string,
  perRequestUs: number,
  ownMarkers: readonly string[],
): Array<{ bucket: PerfBucket; us: number }> {
  const each = samples.length === 0 ? 0 : perRequestUs / samples.length;
  const counts = new Map<PerfBucket, number>();
  for (const sample of samples) {
    const bucket = bucketOf(sample, mainThread, ownMarkers);
    counts.set(bucket, (counts.get(bucket) ?? 0) + 1);
  }
  return PERF_BUCKETS.map((bucket) => ({ bucket, us: (counts.get(bucket) ?? 0) * each }));
}
