/**
 * `npm run bench:profile`: where Switchyard's time goes per request. Starts the mock upstream and
 * the load generator (CPU 0) and Switchyard (CPU 1) under `node --cpu-prof`, drives one kind of
 * load, stops Switchyard so V8 writes the profile, and prints self time by area and function and
 * inclusive time of our own functions, in µs per request (only the measured window is counted).
 *
 * Settings: PROFILE_LOAD (saturate | paced | streams | embeddings | concurrent; saturate),
 * PROFILE_STREAMS (concurrent: 5000), PROFILE_SECONDS (15),
 * PROFILE_RATE (paced/embeddings 1000, streams 200), PROFILE_CONNECTIONS (64), PROFILE_NODE_ARGS (extra
 * Node flags for Switchyard, space-separated, for A/B runs of runtime settings), plus the bench's
 * BENCH_SWITCHYARD / BENCH_SKIP_BUILD / BENCH_PIN. PROFILE_TARGET=bare profiles the bare proxy instead
 * (the same load and summary: what any Node gateway pays), `ledger` (or `ledger-2`) the durable-billing
 * floor (ledger-proxy.mjs). PROFILE_ALLOCATIONS=all|survivors adds a
 * sampling heap profile of the window: bytes allocated per request by function, or only the bytes
 * that outlived a scavenge (what young-generation collections copy and promote). The profile stays in bench/results/profiles/.
 */
import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadBenchConfig, nodeArgsOf } from '../bench-config.ts';
import { startLoadClient } from '../load/load-client.ts';
import type { LoadJob } from '../load/load-jobs.ts';
import { hasTaskset, readCpuMs, stopAll } from '../processes.ts';
import { bodies, chatRequest } from '../request-bodies.ts';
import { buildSwitchyard, probeTarget, repositoryRoot, startMock, startNamedTarget } from '../targets.ts';
import { summarizeAllocations } from './summarize-allocations.ts';
import { formatSummary, summarizeProfile } from './summarize-profile.ts';

const log = (message: string) => process.stderr.write(`[profile] ${message}\n`);

async function main(): Promise<void> {
  const config = loadBenchConfig();
  const kind = process.env.PROFILE_LOAD ?? 'saturate';
  const seconds = Number(process.env.PROFILE_SECONDS ?? 15);
  const connections = Number(process.env.PROFILE_CONNECTIONS ?? 64);
  const rate = Number(process.env.PROFILE_RATE ?? (kind === 'streams' ? 200 : 1000));
  const pinned = config.pin && hasTaskset;
  const directory = join(repositoryRoot, 'bench/results/profiles');
  mkdirSync(directory, { recursive: true });
  buildSwitchyard(config);
  const mock = await startMock(pinned ? '0' : null);
  const load = await startLoadClient(pinned ? '0' : null);
  const allocations = allocationMode();
  const allocationFile = join(directory, `allocations-${Date.now()}.heapprofile`);
  if (allocations) {
    // Read by allocation-preload.cjs in the process under test (spawned with this environment).
    process.env.SWITCHYARD_ALLOCATION_PROFILE = allocationFile;
    process.env.SWITCHYARD_ALLOCATION_MODE = allocations;
  }
  const spawnedAt = performance.now();
  const profileArgs = [
    ...(allocations ? ['--require', join(repositoryRoot, 'bench/src/profile/allocation-preload.cjs')] : []),
    '--cpu-prof',
    `--cpu-prof-dir=${directory}`,
    '--cpu-prof-interval=200',
    ...nodeArgsOf(process.env.PROFILE_NODE_ARGS),
  ];
  const cpus = pinned ? '1' : null;
  const target = await startNamedTarget(process.env.PROFILE_TARGET, config, mock.url, cpus, profileArgs);
  const body = bodies(config);
  await probeTarget(target, body);
  const chat = chatRequest(target, body.chat);
  log('warming up (5 s)');
  await load.run({ kind: 'saturate', ...chat, connections: 16, durationSeconds: 5 });
  let job: LoadJob;
  if (kind === 'saturate') job = { kind: 'saturate', ...chat, connections, durationSeconds: seconds };
  else if (kind === 'paced')
    job = { kind: 'paced', pacer: config.pacer, ...chat, rate, durationSeconds: seconds };
  else if (kind === 'embeddings') {
    job = {
      kind: 'paced',
      pacer: config.pacer,
      url: `${target.url}/v1/embeddings`,
      headers: target.headers,
      body: body.embeddings,
      rate,
      durationSeconds: seconds,
    };
  } else if (kind === 'streams') {
    job = { kind: 'streams', ...chat, body: body.stream, rate, durationSeconds: seconds };
  } else if (kind === 'concurrent') {
    const count = Number(process.env.PROFILE_STREAMS ?? 5000);
    job = {
      kind: 'concurrent',
      ...chat,
      body: body.concurrent,
      count,
      timeoutSeconds: config.concurrentHoldSeconds + 20,
    };
  } else
    throw new Error(`PROFILE_LOAD must be saturate, paced, streams, embeddings or concurrent, not ${kind}`);
  const windowStart = performance.now() - spawnedAt;
  const cpuBefore = readCpuMs(target.process.pid);
  if (allocations) process.kill(target.process.pid, 'SIGUSR2');
  const result = await load.run(job);
  if (allocations) {
    process.kill(target.process.pid, 'SIGUSR2');
    await waitForFile(allocationFile, 15_000);
  }
  const windowEnd = performance.now() - spawnedAt;
  const cpuMs = readCpuMs(target.process.pid) - cpuBefore;
  const requests = result.ok + result.failed;
  log(
    `${kind}: ${result.rps.toFixed(0)}/s, p50 ${result.latency.p50.toFixed(2)} ms, p99 ${result.latency.p99.toFixed(2)} ms, ` +
      `${result.failed} failed${result.firstFailure ? ` (first: ${result.firstFailure})` : ''}` +
      `${result.opened !== undefined ? `, opened ${result.opened}, peak open ${result.peakOpen}` : ''}; Switchyard CPU ${((cpuMs * 1000) / Math.max(1, requests)).toFixed(0)} µs/req (/proc)`,
  );
  const before = new Set(readdirSync(directory));
  await target.stop();
  await mock.stop();
  await load.process.stop();
  const written = readdirSync(directory)
    .filter((name) => name.endsWith('.cpuprofile') && !before.has(name))
    .map((name) => join(directory, name))
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)[0];
  if (!written) throw new Error('Switchyard wrote no profile (did it exit cleanly?)');
  log(`profile: ${written} (window ${windowStart.toFixed(0)}–${windowEnd.toFixed(0)} ms after spawn)`);
  const summary = summarizeProfile(written, Number(process.env.PROFILE_ROWS ?? 40), {
    fromMs: windowStart,
    toMs: windowEnd,
  });
  process.stdout.write(`${formatSummary(summary, requests)}\n`);
  if (allocations) {
    process.stdout.write(
      `\nallocations (${allocations === 'all' ? 'everything allocated' : 'what outlived a scavenge'}), ${allocationFile}:\n`,
    );
    process.stdout.write(
      `${summarizeAllocations(allocationFile, requests, Number(process.env.PROFILE_ROWS ?? 40))}\n`,
    );
  }
}

async function waitForFile(path: string, timeoutMs: number): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!existsSync(path)) {
    if (performance.now() > until) throw new Error(`the heap profile never appeared at ${path}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** PROFILE_ALLOCATIONS: `all` (bytes allocated per request) or `survivors` (bytes that outlived a scavenge). */
function allocationMode(): 'all' | 'survivors' | null {
  const value = process.env.PROFILE_ALLOCATIONS?.trim();
  if (!value) return null;
  if (value !== 'all' && value !== 'survivors') {
    throw new Error(`PROFILE_ALLOCATIONS must be all or survivors, not ${value}`);
  }
  return value;
}

main().then(
  async () => {
    await stopAll();
    process.exit(0);
  },
  async (error: unknown) => {
    process.stderr.write(`profile FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
    await stopAll();
    process.exit(1);
  },
);
