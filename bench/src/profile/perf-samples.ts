/**
 * Reads `perf script -F tid,ip,sym` output (one sample per block: a line with the thread id, then
 * one tab-indented frame per line, leaf first) and sums it per request: self time by symbol, the main thread
 * against the others, inclusive time of frames matching given substrings, and the split by the
 * nearest JavaScript frame (perf-buckets.ts). Pure, for perf-record.ts.
 */
import { OWN_CODE_MARKERS, type PerfBucket, splitIntoBuckets } from './perf-buckets.ts';

export interface PerfSample {
  thread: string;
  /** Leaf first. */
  frames: string[];
}

export interface PerfSummary {
  samples: number;
  /** CPU per request the samples stand for, µs (the caller's /proc reading). */
  perRequestUs: number;
  mainThreadUs: number;
  otherThreadsUs: number;
  /** Self time by leaf symbol, largest first. */
  self: Array<{ symbol: string; us: number }>;
  /** Main-thread samples with a frame containing the pattern, per pattern. */
  inclusive: Array<{ pattern: string; us: number }>;
  /** Every sample by the nearest JavaScript frame's code (perf-buckets.ts). */
  buckets: Array<{ bucket: PerfBucket; us: number }>;
}

export function parsePerfScript(text: string): PerfSample[] {
  const samples: PerfSample[] = [];
  let current: PerfSample | null = null;
  for (const line of text.split('\n')) {
    if (line.trim() === '') {
      if (current) samples.push(current);
      current = null;
      continue;
    }
    // Frames start with a tab; a sample's first line (the thread id, padded) does not.
    if (!line.startsWith('\t')) {
      current = { thread: line.trim().split(/\s+/)[0]!, frames: [] };
      continue;
    }
    // "\t 7f12ab symbol name (dso)": the address, then the symbol.
    const frame = line.trim().replace(/^[0-9a-f]+\s+/, '');
    current?.frames.push(frame);
  }
  if (current) samples.push(current);
  return samples;
}

/** The thread with the most samples: the event loop's, under load. */
function mainThreadOf(samples: PerfSample[]): string {
  const counts = new Map<string, number>();
  for (const sample of samples) counts.set(sample.thread, (counts.get(sample.thread) ?? 0) + 1);
  let main = '';
  let most = -1;
  for (const [thread, count] of counts) {
    if (count > most) [main, most] = [thread, count];
  }
  return main;
}

export function summarizePerf(
  samples: PerfSample[],
  perRequestUs: number,
  patterns: readonly string[],
  rows = 30,
  ownMarkers: readonly string[] = OWN_CODE_MARKERS,
): PerfSummary {
  const each = samples.length === 0 ? 0 : perRequestUs / samples.length;
  const main = mainThreadOf(samples);
  const self = new Map<string, number>();
  let mainCount = 0;
  const inclusive = patterns.map(() => 0);
  for (const sample of samples) {
    const leaf = sample.frames[0] ?? '(unknown)';
    self.set(leaf, (self.get(leaf) ?? 0) + 1);
    if (sample.thread !== main) continue;
    mainCount++;
    patterns.forEach((pattern, index) => {
      if (sample.frames.some((frame) => frame.includes(pattern))) inclusive[index]! += 1;
    });
  }
  return {
    samples: samples.length,
    perRequestUs,
    mainThreadUs: mainCount * each,
    otherThreadsUs: (samples.length - mainCount) * each,
    self: [...self]
      .sort((a, b) => b[1] - a[1])
      .slice(0, rows)
      .map(([symbol, count]) => ({ symbol, us: count * each })),
    inclusive: patterns.map((pattern, index) => ({ pattern, us: inclusive[index]! * each })),
    buckets: splitIntoBuckets(samples, main, perRequestUs, ownMarkers),
  };
}

export function formatPerfSummary(summary: PerfSummary): string {
  const us = (value: number) => `${value.toFixed(2).padStart(7)} µs/req`;
  const lines = [
    `${summary.samples} samples, ${summary.perRequestUs.toFixed(1)} µs/req in all: main thread ${summary.mainThreadUs.toFixed(1)}, other threads ${summary.otherThreadsUs.toFixed(1)}`,
    '',
    'self time by symbol:',
    ...summary.self.map(({ symbol, us: value }) => `${us(value)}  ${symbol}`),
  ];
  lines.push('', 'by the nearest JavaScript frame (a SQLite leaf counts as SQLite):');
  for (const { bucket, us: value } of summary.buckets) lines.push(`${us(value)}  ${bucket}`);
  if (summary.inclusive.length > 0) {
    lines.push('', 'inclusive, main thread (frames containing):');
    for (const { pattern, us: value } of summary.inclusive) lines.push(`${us(value)}  ${pattern}`);
  }
  return lines.join('\n');
}
