import { describe, expect, it } from 'vitest';
import { bucketOf, OWN_CODE_MARKERS, splitIntoBuckets } from './perf-buckets.ts';
import { formatPerfSummary, summarizePerf } from './perf-samples.ts';

const main = '100';
const sample = (frames: string[], thread = main) => ({ thread, frames });
const OWN = 'JS:*relayCall file:///work/main/apps/server/dist/main.js:32141:25';
const UNDICI = 'JS:*_resume /work/main/node_modules/undici/lib/dispatcher/client.js:589:18';
const NODE = 'JS:*end node:_http_outgoing:1060:45';

describe('perf buckets', () => {
  it('puts a sample in the bucket of its nearest JavaScript frame, leaf first', () => {
    const of = (frames: string[], thread = main) => bucketOf(sample(frames, thread), main, OWN_CODE_MARKERS);
    expect(of(['Builtins_LoadIC', OWN, 'uv_run'])).toBe('own code');
    // Node's write called from our code: the nearest JavaScript frame is Node's.
    expect(of(['__GI___writev', NODE, OWN])).toBe("Node's internals");
    expect(of(['memcpy', UNDICI, NODE])).toBe('undici');
    expect(of(['JS:*bare file:///work/main/bench/src/bare-proxy.mjs:49:29'])).toBe('own code');
    expect(of(['JS:wasm-function[20]-20-turbofan', NODE])).toBe('other JavaScript');
    expect(of(['epoll_wait', 'uv__io_poll', 'uv_run'])).toBe('libuv and native, no JavaScript frame');
  });

  it('counts a SQLite leaf as SQLite whoever called it, and other threads apart', () => {
    const of = (frames: string[], thread = main) => bucketOf(sample(frames, thread), main, OWN_CODE_MARKERS);
    expect(of(['sqlite3VdbeExec', 'Statement::JS_run', OWN])).toBe('SQLite');
    expect(of(['pcache1Fetch', 'sqlite3_step', OWN])).toBe('SQLite');
    // The kernel's write under SQLite's commit is the kernel's (no JavaScript frame nearer than ours).
    expect(of(['copy_folio_from_iter_atomic', 'sqlite3WalFrames', OWN])).toBe('own code');
    expect(of(['sqlite3VdbeExec', 'JS:^checkpoint [worker eval]:13:20'], '101')).toBe('other threads');
  });

  it('shares the CPU per request over every bucket, in a fixed order, and prints them', () => {
    const samples = [
      sample(['x', OWN]),
      sample(['x', OWN]),
      sample(['sqlite3VdbeExec', OWN]),
      sample(['y', 'uv_run']),
      sample(['z'], '101'),
    ];
    const buckets = splitIntoBuckets(samples, main, 50, OWN_CODE_MARKERS);
    expect(buckets).toEqual([
      { bucket: 'own code', us: 20 },
      { bucket: 'SQLite', us: 10 },
      { bucket: 'undici', us: 0 },
      { bucket: "Node's internals", us: 0 },
      { bucket: 'other JavaScript', us: 0 },
      { bucket: 'libuv and native, no JavaScript frame', us: 10 },
      { bucket: 'other threads', us: 10 },
    ]);
    const text = formatPerfSummary(summarizePerf(samples, 50, []));
    expect(text).toContain('  20.00 µs/req  own code');
    expect(text).toContain('  10.00 µs/req  other threads');
  });
});
