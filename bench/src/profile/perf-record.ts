/**
 * `npm run perf -w @switchyard/bench`: where a target's CPU goes at saturation, sampled by Linux
 * `perf` (cpu-clock, with call stacks; Node writes /tmp/perf-<pid>.map so JIT frames have names).
 * Unlike `npm run profile` (V8's --cpu-prof, which slowed Switchyard to a third of its speed and
 * the floors far less), perf costs every process about the same few percent, sees the kernel,
 * SQLite and V8's own threads, and so compares targets fairly. Mock upstream and load generator
 * on CPU 0, the target on CPU 1; 10 s of warm-up, then PROFILE_SECONDS (15) at PROFILE_CONNECTIONS
 * (64) while perf records. Prints µs per request by symbol (self), the main thread against the
 * others, the split by the nearest JavaScript frame (own code, SQLite, undici, Node's internals,
 * native; perf-buckets.ts) and the main thread's inclusive time in frames containing each of
 * PERF_FRAMES (comma-separated substrings). PROFILE_TARGET=bare|ledger samples a floor instead. The recording
 * stays in bench/results/profiles/ (`perf report -i <file>` reads it while the map file exists).
 * Needs `perf` (Debian: linux-perf); not part of CI.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadBenchConfig } from '../bench-config.ts';
import { startLoadClient } from '../load/load-client.ts';
import { hasTaskset, readCpuMs, stopAll } from '../processes.ts';
import { bodies, chatLoad, chatRequest } from '../request-bodies.ts';
import { buildSwitchyard, probeTarget, repositoryRoot, startMock, startNamedTarget } from '../targets.ts';
import { formatPerfSummary, parsePerfScript, summarizePerf } from './perf-samples.ts';

const DEFAULT_FRAMES =
  'relayCall,flushBound,sqlite3_step,__GI___writev,pwrite,uv__read,RunMicrotasks,Heap::CollectGarbage';

const log = (message: string) => process.stderr.write(`[perf] ${message}\n`);

async function main(): Promise<void> {
  if (spawnSync('perf', ['--version']).status !== 0) {
    throw new Error('`perf` is not installed (Debian: apt-get install -y linux-perf)');
  }
  const config = loadBenchConfig();
  const seconds = Number(process.env.PROFILE_SECONDS ?? 15);
  const connections = Number(process.env.PROFILE_CONNECTIONS ?? 64);
  // PROFILE_LOAD=streams: streamed chats opened at PROFILE_RATE (200) per second, as the bench's
  // streaming phase does, instead of non-stream chat at saturation (the warm-up too).
  const streams = process.env.PROFILE_LOAD === 'streams';
  const streamRate = Number(process.env.PROFILE_RATE ?? 200);
  const frames = (process.env.PERF_FRAMES ?? DEFAULT_FRAMES).split(',').filter(Boolean);
  const pinned = config.pin && hasTaskset;
  const directory = join(repositoryRoot, 'bench/results/profiles');
  mkdirSync(directory, { recursive: true });
  const output = join(directory, `perf-${Date.now()}.data`);
  buildSwitchyard(config);
  const mock = await startMock(pinned ? '0' : null);
  const load = await startLoadClient(pinned ? '0' : null);
  const target = await startNamedTarget(process.env.PROFILE_TARGET, config, mock.url, pinned ? '1' : null, [
    '--perf-basic-prof-only-functions',
    '--interpreted-frames-native-stack',
  ]);
  try {
    const body = bodies(config);
    await probeTarget(target, body);
    const chat = chatRequest(target, body.chat);
    // Warmed up with the load it measures, so V8 has compiled that path before perf records.
    log(`warming up (10 s of ${streams ? 'streams' : 'chat'})`);
    const rate = streams ? streamRate : null;
    await load.run(chatLoad(chat, body.stream, { streamRate: rate, connections: 16 }, 10));
    const pid = String(target.process.pid);
    const perf = spawn('perf', ['record', '-e', 'cpu-clock', '-F', '2000', '-g', '-p', pid, '-o', output], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const cpuBefore = readCpuMs(target.process.pid);
    const result = await load.run(chatLoad(chat, body.stream, { streamRate: rate, connections }, seconds));
    const cpuMs = readCpuMs(target.process.pid) - cpuBefore;
    perf.kill('SIGINT');
    await new Promise((resolve) => perf.once('exit', resolve));
    const requests = result.ok + result.failed;
    const perRequestUs = (cpuMs * 1000) / Math.max(1, requests);
    log(
      `${streams ? 'streams' : 'saturate'}: ${result.rps.toFixed(0)}/s, ${result.failed} failed, ${perRequestUs.toFixed(1)} µs/req (/proc)`,
    );
    const script = spawnSync('perf', ['script', '-i', output, '-F', 'tid,ip,sym'], {
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    });
    if (script.status !== 0) throw new Error(`perf script failed: ${script.stderr}`);
    const summary = summarizePerf(
      parsePerfScript(script.stdout),
      perRequestUs,
      frames,
      Number(process.env.PROFILE_ROWS ?? 40),
    );
    process.stdout.write(`${formatPerfSummary(summary)}\n\nrecording: ${output}\n`);
  } finally {
    await target.stop();
    await mock.stop();
    await load.process.stop();
  }
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => stopAll());
