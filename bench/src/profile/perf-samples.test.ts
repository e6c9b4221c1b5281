import { describe, expect, it } from 'vitest';
import { formatPerfSummary, parsePerfScript, summarizePerf } from './perf-samples.ts';

// Three samples of the main thread (100) and one of a helper (101), as `perf script -F tid,ip,sym` prints them.
const SCRIPT = [
  '   100 ',
  '\t         2a4b10 sqlite3VdbeExec',
  '\t         2a0000 JS:*flushBound file:///app/main.js:10:1',
  '\t         1f0000 uv_run',
  '',
  '   100 ',
  '\t         3b0000 __GI___writev',
  '\t         2b0000 JS:*sendResponse file:///app/main.js:20:1',
  '\t         1f0000 uv_run',
  '',
  '   100 ',
  '\t         2a4b10 sqlite3VdbeExec',
  '\t         2a0000 JS:*flushBound file:///app/main.js:10:1',
  '\t         1f0000 uv_run',
  '',
  '   101 ',
  '\t         4c0000 v8::internal::Scavenger::ScavengeObject',
  '\t         4b0000 start_thread',
  '',
].join('\n');

describe('perf samples', () => {
  it('reads each sample with its thread and frames, leaf first', () => {
    const samples = parsePerfScript(SCRIPT);
    expect(samples).toHaveLength(4);
    expect(samples[0]).toEqual({
      thread: '100',
      frames: ['sqlite3VdbeExec', 'JS:*flushBound file:///app/main.js:10:1', 'uv_run'],
    });
    expect(samples[3]!.thread).toBe('101');
  });

  it('shares the CPU per request over the samples: self, main thread, inclusive frames', () => {
    const summary = summarizePerf(parsePerfScript(SCRIPT), 80, ['flushBound', 'writev', 'absent']);
    expect(summary.mainThreadUs).toBe(60);
    expect(summary.otherThreadsUs).toBe(20);
    expect(summary.self[0]).toEqual({ symbol: 'sqlite3VdbeExec', us: 40 });
    expect(summary.inclusive).toEqual([
      { pattern: 'flushBound', us: 40 },
      { pattern: 'writev', us: 20 },
      { pattern: 'absent', us: 0 },
    ]);
    const text = formatPerfSummary(summary);
    expect(text).toContain('main thread 60.0, other threads 20.0');
    expect(text).toContain('  40.00 µs/req  sqlite3VdbeExec');
  });
});
