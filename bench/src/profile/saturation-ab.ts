/**
 * `npm run ab -w @switchyard/bench`: Switchyard's CPU per request at saturation for several
 * variants, alternated round by round in one sitting (the order rotates each round) (machine speed drifts by ±10% within minutes,
 * so variants measured one after the other are not comparable). No profiler: the number is the
 * process's own CPU time (all threads, /proc) over the requests answered, as in the bench's
 * saturation phase. Mock upstream and load generator on CPU 0, Switchyard on CPU 1.
 *
 * AB_VARIANTS: `name:KEY=value,KEY=value|name:...` — each variant's extra environment for the
 * Switchyard process (`base:` with nothing after it is the defaults); `AB_NODE_ARGS=--flag` in a
 * variant gives its Switchyard Node or V8 flags (space-separated) that NODE_OPTIONS refuses. AB_ROUNDS (3), AB_SECONDS
 * (10), AB_CONNECTIONS (64), AB_RATE (0 = saturation; a rate paces the load instead and the summary
 * compares client p99 latency), plus the bench's BENCH_SKIP_BUILD / BENCH_PIN. To compare builds, copy
 * `apps/server/dist` aside inside the repository (so its imports still resolve) and give a variant
 * `BENCH_SWITCHYARD_MAIN=apps/server/dist-before/main.js`; `AB_TARGET=bare` runs the bare proxy,
 * `AB_TARGET=pool` the pool proxy (one undici Pool, bodies buffered). Each
 * line also gives the kernel (system) share of that CPU, the machine's TCP segments and the process's write and read system calls per
 * request (SQLite's WAL writes count as writes). `AB_TARGET=ledger` runs the durable-billing floor
 * (ledger-proxy.mjs: the bare proxy plus a key check, the body parsed and a reservation and a
 * settlement with one log row in SQLite per call; `ledger-2` with two log indexes instead of
 * seven). AB_WINDOWS (1): measured windows per started
 * process, each reported on its own line (tells a slow process apart from a slow minute).
 * AB_WARMUP (10 s at AB_CONNECTIONS before the first window): Switchyard needs ~10 s at saturation
 * before the JIT's steady state (its first 6 s cost 10-15% more CPU per request).
 * AB_LOAD=streams: the warm-up and the measured windows open streamed chats at AB_RATE (200) per
 * second, as the bench's streaming phase does, and the summary compares the first byte's p50 instead.
 */

import { readFileSync } from 'node:fs';
import { loadBenchConfig } from '../bench-config.ts';
import { startLoadClient } from '../load/load-client.ts';
import { hasTaskset, readCpuMs, readMainThreadCpuMs, readSystemCpuMs, stopAll } from '../processes.ts';
import { bodies, chatLoad, chatRequest } from '../request-bodies.ts';
import { roundOrder } from '../saturation-rounds.ts';
import { buildSwitchyard, probeTarget, startMock, startVariantTarget } from '../targets.ts';
import { pairedRatios, parseVariants } from './ab-variants.ts';

/** TCP segments sent by the whole machine so far (/proc/net/snmp): loopback traffic of every process. */
function tcpSegmentsSent(): number {
  const lines = readFileSync('/proc/net/snmp', 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('Tcp:'));
  const names = lines[0]!.split(/\s+/);
  const values = lines[1]!.split(/\s+/);
  return Number(values[names.indexOf('OutSegs')]);
}

/** Write and read system calls of a process so far (/proc/<pid>/io). */
function systemCalls(pid: number): { writes: number; reads: number } {
  const io = readFileSync(`/proc/${pid}/io`, 'utf8');
  return { writes: Number(/syscw: (\d+)/.exec(io)![1]), reads: Number(/syscr: (\d+)/.exec(io)![1]) };
}

const log = (message: string) => process.stderr.write(`[ab] ${message}\n`);

async function main(): Promise<void> {
  const config = loadBenchConfig();
  const variants = parseVariants(process.env.AB_VARIANTS ?? 'base:');
  const rounds = Number(process.env.AB_ROUNDS ?? 3);
  const seconds = Number(process.env.AB_SECONDS ?? 10);
  const connections = Number(process.env.AB_CONNECTIONS ?? 64);
  const streams = process.env.AB_LOAD === 'streams';
  if (process.env.AB_LOAD !== undefined && !streams) throw new Error('AB_LOAD must be streams or unset');
  const rate = Number(process.env.AB_RATE ?? (streams ? 200 : 0));
  const windows = Math.max(1, Number(process.env.AB_WINDOWS ?? 1));
  const warmupSeconds = Number(process.env.AB_WARMUP ?? 10);
  const pinned = config.pin && hasTaskset;
  buildSwitchyard(config);
  const mock = await startMock(pinned ? '0' : null);
  const load = await startLoadClient(pinned ? '0' : null);
  const body = bodies(config);
  const results = new Map<string, number[]>(variants.map((variant) => [variant.name, []]));
  for (let round = 1; round <= rounds; round++) {
    // Rotated each round: the variant measured second in a round can run 5-15% slower
    // whichever build it is, so a fixed order reads as a difference between builds.
    for (const variant of roundOrder(variants, round)) {
      const target = await startVariantTarget(variant.env, config, mock.url, pinned ? '1' : null);
      try {
        await probeTarget(target, body);
        const chat = chatRequest(target, body.chat);
        // Warmed up with the measured kind of call (streams compile their own code paths).
        const shape = { streamRate: streams ? rate : null, connections };
        await load.run(chatLoad(chat, body.stream, shape, warmupSeconds));
        const pid = target.process.pid;
        for (let window = 1; window <= windows; window++) {
          const cpuBefore = readCpuMs(pid);
          const mainBefore = readMainThreadCpuMs(pid);
          const systemBefore = readSystemCpuMs(pid);
          const segmentsBefore = tcpSegmentsSent();
          const callsBefore = systemCalls(pid);
          const result = await load.run(
            !streams && rate > 0
              ? { kind: 'paced', pacer: config.pacer, ...chat, rate, durationSeconds: seconds }
              : chatLoad(chat, body.stream, shape, seconds),
          );
          const requests = Math.max(1, result.ok + result.failed);
          const perRequest = ((readCpuMs(pid) - cpuBefore) * 1000) / requests;
          const mainPerRequest = ((readMainThreadCpuMs(pid) - mainBefore) * 1000) / requests;
          const systemPerRequest = ((readSystemCpuMs(pid) - systemBefore) * 1000) / requests;
          const segments = (tcpSegmentsSent() - segmentsBefore) / requests;
          const callsAfter = systemCalls(pid);
          const writes = (callsAfter.writes - callsBefore.writes) / requests;
          const reads = (callsAfter.reads - callsBefore.reads) / requests;
          const firstByte = result.firstByte;
          results
            .get(variant.name)!
            .push(streams && firstByte ? firstByte.p50 : rate > 0 ? result.latency.p99 : perRequest);
          log(
            `round ${round}${windows > 1 ? ` window ${window}` : ''} ${variant.name}: ${result.rps.toFixed(0)}/s, ` +
              (firstByte
                ? `first byte p50 ${firstByte.p50.toFixed(2)} ms, p99 ${firstByte.p99.toFixed(2)} ms, `
                : '') +
              `p50 ${result.latency.p50.toFixed(2)} ms, ` +
              `p99 ${result.latency.p99.toFixed(2)} ms, ${perRequest.toFixed(1)} µs/req ` +
              `(main thread ${mainPerRequest.toFixed(1)}, other threads ${(perRequest - mainPerRequest).toFixed(1)}; kernel ${systemPerRequest.toFixed(1)}), ` +
              `${segments.toFixed(2)} TCP segments, ${writes.toFixed(2)} write and ${reads.toFixed(2)} read calls per request, ${result.failed} failed`,
          );
        }
      } finally {
        await target.stop();
      }
    }
  }
  await mock.stop();
  await load.process.stop();
  for (const [name, values] of results) {
    const sorted = [...values].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    process.stdout.write(
      `${name.padEnd(16)} median ${median.toFixed(rate > 0 ? 2 : 1)} ${streams ? 'ms first byte p50' : rate > 0 ? 'ms p99' : 'µs/req'}  (${values.map((v) => v.toFixed(rate > 0 ? 2 : 1)).join(', ')})\n`,
    );
  }
  const baseline = variants[0]?.name ?? '';
  for (const { name, ratios, median } of pairedRatios(results)) {
    process.stdout.write(
      `${name.padEnd(16)} ÷ ${baseline}, round by round: median ${median.toFixed(3)}  (${ratios.map((r) => r.toFixed(3)).join(', ')})\n`,
    );
  }
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => stopAll());
