/**
 * `npm run ab:concurrent -w @switchyard/bench`: the CPU per request of several variants measured
 * at the same time. Every variant's process runs on CPU 1 together, each saturated by its own load
 * generator (mock upstream and load generators on CPU 0), so they share that core and whatever the
 * host does to it. Where the machine's speed swings by tens of percent from minute to minute (a
 * busy host: `npm run ab`'s A/A rounds can read 0.81–1.40), variants measured in turn
 * cannot be compared, but variants measured side by side can: each window's ratio is taken over
 * the same seconds. The number is each process's own CPU time (all threads, /proc) over the
 * requests it answered, as in `npm run ab`; the summary gives each variant against the first,
 * window by window, and the median.
 *
 * AB_VARIANTS as for `npm run ab` (`name:KEY=value,…|name:…`; `BENCH_SWITCHYARD_MAIN` picks a
 * build, `AB_TARGET=bare|ledger` a floor). AB_WINDOWS (8) windows of AB_SECONDS (5) after
 * AB_WARMUP (10) seconds, AB_CONNECTIONS (32) per variant. The variants start in a rotated order
 * every AB_RESTART windows (0 = never), so no process keeps a lucky heap layout all sitting.
 * AB_PERF=1: the processes start with Node's perf map, and the last window is recorded by Linux
 * `perf` for each one (as `npm run perf` records one target); each recording's summary is printed,
 * so two gateways' profiles compare over the same seconds (recordings in bench/results/profiles/).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadBenchConfig } from '../bench-config.ts';
import { startLoadClient } from '../load/load-client.ts';
import { hasTaskset, readCpuMs, stopAll } from '../processes.ts';
import { bodies, chatLoad, chatRequest } from '../request-bodies.ts';
import {
  buildSwitchyard,
  probeTarget,
  repositoryRoot,
  startMock,
  startVariantTarget,
  type Target,
} from '../targets.ts';
import { pairedRatios, parseVariants } from './ab-variants.ts';
import { formatPerfSummary, parsePerfScript, summarizePerf } from './perf-samples.ts';

/** Node flags that let `perf` name JavaScript frames (as `npm run perf` starts its target). */
const PERF_MAP_FLAGS = ['--perf-basic-prof-only-functions', '--interpreted-frames-native-stack'];

/** Starts `perf record` on a process; the recording ends when the returned process is sent SIGINT. */
function recordPerf(pid: number, output: string): ChildProcess {
  return spawn('perf', ['record', '-e', 'cpu-clock', '-F', '2000', '-g', '-p', String(pid), '-o', output], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function stopPerf(perf: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => perf.once('exit', resolve));
  perf.kill('SIGINT');
  await exited;
}

const log = (message: string) => process.stderr.write(`[ab:concurrent] ${message}\n`);

async function main(): Promise<void> {
  const config = loadBenchConfig();
  const variants = parseVariants(process.env.AB_VARIANTS ?? 'a:|b:');
  if (variants.length < 2) throw new Error('AB_VARIANTS needs two variants or more');
  const windows = Number(process.env.AB_WINDOWS ?? 8);
  const seconds = Number(process.env.AB_SECONDS ?? 5);
  const warmupSeconds = Number(process.env.AB_WARMUP ?? 10);
  const connections = Number(process.env.AB_CONNECTIONS ?? 32);
  const restartEvery = Number(process.env.AB_RESTART ?? 0);
  const perf = process.env.AB_PERF === '1';
  if (perf && spawnSync('perf', ['--version']).status !== 0) {
    throw new Error('`perf` is not installed (Debian: apt-get install -y linux-perf)');
  }
  const profiles = join(repositoryRoot, 'bench/results/profiles');
  if (perf) mkdirSync(profiles, { recursive: true });
  const pinned = config.pin && hasTaskset;
  buildSwitchyard(config);
  const mock = await startMock(pinned ? '0' : null);
  const loads = await Promise.all(variants.map(() => startLoadClient(pinned ? '0' : null)));
  const body = bodies(config);
  const results = new Map<string, number[]>(variants.map((variant) => [variant.name, []]));
  let targets: Target[] = [];
  let starts = 0;
  const start = async () => {
    const round = starts++;
    await Promise.all(targets.map((target) => target.stop()));
    targets = new Array(variants.length);
    // Started one after the other (ports, database files), in an order that rotates.
    for (let step = 0; step < variants.length; step++) {
      const index = (step + round) % variants.length;
      targets[index] = await startVariantTarget(
        variants[index]!.env,
        config,
        mock.url,
        pinned ? '1' : null,
        perf ? PERF_MAP_FLAGS : [],
      );
    }
    for (const target of targets) await probeTarget(target, body);
    log(`warming up ${warmupSeconds} s`);
    await Promise.all(
      targets.map((target, index) =>
        loads[index]!.run(
          chatLoad(
            chatRequest(target, body.chat),
            body.stream,
            { streamRate: null, connections },
            warmupSeconds,
          ),
        ),
      ),
    );
  };
  try {
    for (let window = 0; window < windows; window++) {
      if (window === 0 || (restartEvery > 0 && window % restartEvery === 0)) await start();
      const recordings =
        perf && window === windows - 1
          ? targets.map((target, index) => {
              const output = join(profiles, `concurrent-${Date.now()}-${variants[index]!.name}.data`);
              return { output, perf: recordPerf(target.process.pid, output) };
            })
          : [];
      const cpuBefore = targets.map((target) => readCpuMs(target.process.pid));
      const runs = await Promise.all(
        targets.map((target, index) =>
          loads[index]!.run(
            chatLoad(chatRequest(target, body.chat), body.stream, { streamRate: null, connections }, seconds),
          ),
        ),
      );
      const line = variants.map((variant, index) => {
        const run = runs[index]!;
        const requests = Math.max(1, run.ok + run.failed);
        const perRequest = ((readCpuMs(targets[index]!.process.pid) - cpuBefore[index]!) * 1000) / requests;
        results.get(variant.name)!.push(perRequest);
        return `${variant.name} ${run.rps.toFixed(0)}/s ${perRequest.toFixed(1)} µs/req${run.failed ? ` (${run.failed} failed)` : ''}`;
      });
      log(`window ${window + 1}: ${line.join(', ')}`);
      await Promise.all(recordings.map((recording) => stopPerf(recording.perf)));
      recordings.forEach((recording, index) => {
        const script = spawnSync('perf', ['script', '-i', recording.output, '-F', 'tid,ip,sym'], {
          encoding: 'utf8',
          maxBuffer: 1 << 30,
        });
        if (script.status !== 0) throw new Error(`perf script failed: ${script.stderr}`);
        const perRequest = results.get(variants[index]!.name)!.at(-1)!;
        const summary = summarizePerf(parsePerfScript(script.stdout), perRequest, [], 25);
        process.stdout.write(
          `\n== ${variants[index]!.name}\n${formatPerfSummary(summary)}\nrecording: ${recording.output}\n`,
        );
      });
    }
  } finally {
    await Promise.all(targets.map((target) => target.stop()));
    await mock.stop();
    await Promise.all(loads.map((load) => load.process.stop()));
  }
  const baseline = variants[0]!.name;
  for (const { name, ratios, median } of pairedRatios(results)) {
    process.stdout.write(
      `${name.padEnd(16)} ÷ ${baseline}, window by window: median ${median.toFixed(3)}  (${ratios.map((r) => r.toFixed(3)).join(', ')})\n`,
    );
  }
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => stopAll());
