/**
 * `npm run bench`: starts the mock upstream, the bare proxy, Switchyard and Portkey's gateway as
 * separate processes, drives each in turn from a separate load-generator process, then saturates
 * them with the two other floors (pool proxy, durable-billing floor) in alternated rounds, prints
 * the results and writes them as Markdown (docs/benchmarks.md for a full run).
 * Exits non-zero when a target cannot start, does not relay, or dies during the run.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, getPriority } from 'node:os';
import { dirname, join } from 'node:path';
import { type BenchConfig, loadBenchConfig, type TargetName } from './bench-config.ts';
import { renderReport } from './bench-report.ts';
import type { BenchRun, ConcurrencyResult, PhaseResult, TargetResults } from './bench-results.ts';
import type { LoadClient } from './load/load-client.ts';
import { startLoadClient } from './load/load-client.ts';
import type { LoadJob } from './load/load-jobs.ts';
import { machineInfo } from './machine-info.ts';
import type { BillingBenchResult } from './micro/billing-bench.ts';
import type { SensitiveWordsResult } from './micro/sensitive-words-bench.ts';
import {
  backgroundCpu,
  hasTaskset,
  readCpuMs,
  readRss,
  sampleRss,
  spawnProcess,
  stopAll,
} from './processes.ts';
import { type Bodies, bodies, chatRequest } from './request-bodies.ts';
import { AFTER_WINDOW_MS, roundTargets, runSaturationRounds } from './saturation-rounds.ts';
import { sampleHeap } from './soak/heap-sampler.ts';
import {
  eventLoopDelayOf,
  medianSlopeMbPerMinute,
  perMinuteMb,
  slopeMbPerMinute,
  windowFloors,
} from './soak/soak-series.ts';
import {
  buildSwitchyard,
  checkPortkeyInstalled,
  probeTarget,
  repositoryRoot,
  startBareProxy,
  startLedgerProxy,
  startMock,
  startPoolProxy,
  startPortkey,
  startSwitchyard,
  type Target,
} from './targets.ts';

/** How many simultaneous streams this machine allows: each gateway holds two sockets per stream. */
function concurrencyLimit(requested: number, notes: string[]): number {
  let softLimit = Number.POSITIVE_INFINITY;
  try {
    softLimit = Number(
      process.env.BENCH_FD_LIMIT || execFileSync('sh', ['-c', 'ulimit -n'], { encoding: 'utf8' }).trim(),
    );
  } catch {
    // unknown: try the requested count
  }
  if (!Number.isFinite(softLimit) || softLimit <= 0) return requested;
  const allowed = Math.floor((softLimit - 256) / 2);
  if (allowed >= requested) return requested;
  notes.push(
    `The concurrency test was scaled down from ${requested} to ${allowed} streams: the open-file limit ` +
      `(ulimit -n) is ${softLimit} and a gateway needs two sockets per stream. Raise it to run the full test.`,
  );
  return Math.max(1, allowed);
}

function log(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}

/**
 * Switchyard's /metrics text (loopback needs no token), or '' when it does not answer. Each scrape
 * starts a new event-loop delay window.
 */
async function scrapeMetrics(target: Target): Promise<string> {
  try {
    const response = await fetch(`${target.url}/metrics`);
    return response.ok ? await response.text() : '';
  } catch {
    return '';
  }
}

async function measure(
  target: Target,
  load: LoadClient,
  job: LoadJob,
  // The soak's heap sampler scrapes /metrics every 2 s, which would cut the window short.
  options: { loopDelay: boolean } = { loopDelay: true },
): Promise<PhaseResult & { rssSamples: { at: number; rss: number }[] }> {
  const { pid } = target.process;
  const readsLoopDelay = options.loopDelay && target.name === 'switchyard';
  if (readsLoopDelay) await scrapeMetrics(target);
  const sampler = sampleRss(pid);
  const cpuBefore = readCpuMs(pid);
  try {
    const result = await Promise.race([load.run(job), target.process.exited]);
    const rss = sampler.stop();
    const cpuMs = readCpuMs(pid) - cpuBefore;
    const loopDelay = readsLoopDelay ? eventLoopDelayOf(await scrapeMetrics(target)) : undefined;
    return {
      load: result,
      peakRss: rss.peak,
      cpuMs,
      rssSamples: rss.samples,
      ...(loopDelay ? { loopDelay } : {}),
    };
  } finally {
    sampler.stop();
  }
}

const strip = ({ rssSamples: _samples, ...phase }: PhaseResult & { rssSamples?: unknown }): PhaseResult =>
  phase;

const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20)} MB`;
const ms = (value: number) => value.toFixed(2);

function describe(phase: string, result: PhaseResult): void {
  const { load } = result;
  const failures = load.failed > 0 ? `, ${load.failed} failed (${load.firstFailure})` : '';
  const firstByte = load.firstByte ? `, first byte p50 ${ms(load.firstByte.p50)} ms` : '';
  const loop = result.loopDelay
    ? `, loop delay p99 ${ms(result.loopDelay.p99Ms)} ms (max ${ms(result.loopDelay.maxMs)})`
    : '';
  log(
    `  ${phase}: ${load.rps.toFixed(0)}/s, p50 ${ms(load.latency.p50)} ms, p99 ${ms(load.latency.p99)} ms` +
      `${firstByte}, peak RSS ${mb(result.peakRss)}${loop}${failures}`,
  );
}

async function benchTarget(
  target: Target,
  load: LoadClient,
  config: BenchConfig,
  streams: number,
): Promise<TargetResults> {
  const body = bodies(config);
  const path = (route: string) => `${target.url}${route}`;
  const chat = chatRequest(target, body.chat);
  await probeTarget(target, body);
  log(`${target.label}: pid ${target.process.pid}, warming up`);
  if (config.warmupSeconds > 0) {
    await measure(target, load, {
      kind: 'saturate',
      ...chat,
      connections: 16,
      durationSeconds: config.warmupSeconds,
    });
  }
  const results: TargetResults = {
    name: target.name,
    label: target.label,
    idleRss: readRss(target.process.pid),
    backgroundCpuPercent: 0,
    fixedRates: {},
  };
  // Lighter phases first, and a pause after each, so a backlog left by an overloaded phase
  // (queued log rows, settlements) does not spill into the next measurement.
  const pause = () => new Promise((resolve) => setTimeout(resolve, config.quick ? 200 : 1_000));
  const chatAt = async (rate: number) => {
    const result = await measure(target, load, {
      kind: 'paced',
      pacer: config.pacer,
      ...chat,
      rate,
      durationSeconds: config.durationSeconds,
    });
    results.fixedRates[rate] = strip(result);
    describe(`chat @ ${rate}/s`, result);
    await pause();
  };
  const rates = [...config.rates].sort((a, b) => a - b);
  for (const rate of rates.filter((value) => value <= config.embeddingsRate)) await chatAt(rate);
  // The embeddings and streaming phases call code the chat warm-up did not: each kind of call is
  // warmed up like the first phase (BENCH_WARMUP) before it is measured, so every target is
  // measured in its steady state (a large gateway compiles more of its own code than a small proxy).
  const warmedUp = async (job: Extract<LoadJob, { kind: 'paced' | 'streams' }>) => {
    if (config.warmupSeconds > 0) await load.run({ ...job, durationSeconds: config.warmupSeconds });
    return measure(target, load, job);
  };
  results.embeddings = strip(
    await warmedUp({
      kind: 'paced',
      pacer: config.pacer,
      url: path('/v1/embeddings'),
      headers: target.headers,
      body: body.embeddings,
      rate: config.embeddingsRate,
      durationSeconds: config.durationSeconds,
    }),
  );
  describe(`embeddings @ ${config.embeddingsRate}/s`, results.embeddings);
  await pause();
  results.streams = strip(
    await warmedUp({
      kind: 'streams',
      url: chat.url,
      headers: target.headers,
      body: body.stream,
      rate: config.streamRate,
      durationSeconds: config.durationSeconds,
    }),
  );
  describe(`streams @ ${config.streamRate}/s`, results.streams);
  await pause();
  for (const rate of rates.filter((value) => value > config.embeddingsRate)) await chatAt(rate);
  results.saturation = strip(
    await measure(target, load, {
      kind: 'saturate',
      ...chat,
      connections: config.saturationConnections,
      durationSeconds: config.durationSeconds,
    }),
  );
  describe(`chat saturation (${config.saturationConnections} connections)`, results.saturation);
  await pause();
  // The soak comes after the phases every target runs, so that those find Switchyard in the state
  // the others are in (not with a database grown by the soak's 300,000 calls).
  if (config.soakSeconds > 0 && target.name === 'switchyard') {
    log(`  soak: ${config.soakRate} req/s for ${config.soakSeconds} s`);
    const startRss = readRss(target.process.pid);
    const heap = sampleHeap(`${target.url}/metrics`);
    const soak = await measure(
      target,
      load,
      {
        kind: 'paced',
        pacer: config.pacer,
        ...chat,
        rate: config.soakRate,
        durationSeconds: config.soakSeconds,
      },
      { loopDelay: false },
    );
    const rss = soak.rssSamples.map((sample) => ({ at: sample.at, bytes: sample.rss }));
    const heapSeries = heap.stop();
    const heapFloors = windowFloors(heapSeries.heapUsed, 30_000);
    const afterMajorGc = heapSeries.afterMajorGc;
    results.soak = {
      ...strip(soak),
      seconds: config.soakSeconds,
      rate: config.soakRate,
      startRss,
      endRss: readRss(target.process.pid),
      slopeMbPerMinute: slopeMbPerMinute(rss),
      rssPerMinuteMb: perMinuteMb(rss),
      ...(heapFloors.length >= 4
        ? {
            heapFloorSlopeMbPerMinute: slopeMbPerMinute(heapFloors),
            heapFloorTrendMbPerMinute: medianSlopeMbPerMinute(heapFloors),
            heapFloorPerMinuteMb: perMinuteMb(heapFloors),
          }
        : {}),
      ...(afterMajorGc.length >= 4
        ? {
            heapAfterMajorGc: {
              readings: afterMajorGc.length,
              slopeMbPerMinute: slopeMbPerMinute(afterMajorGc),
              trendMbPerMinute: medianSlopeMbPerMinute(afterMajorGc),
              perMinuteMb: perMinuteMb(afterMajorGc),
            },
          }
        : {}),
    };
    describe('soak', results.soak);
    log(
      `  soak RSS slope ${results.soak.slopeMbPerMinute.toFixed(2)} MB/min, heap floor slope ${
        results.soak.heapFloorSlopeMbPerMinute?.toFixed(2) ?? '—'
      } MB/min (median of pairwise slopes ${results.soak.heapFloorTrendMbPerMinute?.toFixed(2) ?? '—'}), heap after full collections ${
        results.soak.heapAfterMajorGc?.trendMbPerMinute.toFixed(2) ?? '—'
      } MB/min (${afterMajorGc.length} readings)`,
    );
    await pause();
  }
  const baselineRss = readRss(target.process.pid);
  const concurrency = await measure(target, load, {
    kind: 'concurrent',
    url: chat.url,
    headers: target.headers,
    body: body.concurrent,
    count: streams,
    timeoutSeconds: config.concurrentHoldSeconds + 20,
  });
  await pause();
  results.concurrency = {
    ...strip(concurrency),
    requested: streams,
    baselineRss,
    afterRss: readRss(target.process.pid),
  } satisfies ConcurrencyResult;
  describe(`${streams} concurrent slow streams`, results.concurrency);
  return results;
}

/** Runs a micro-benchmark (bench/src/micro) in its own process, pinned like the gateways. */
async function runMicroBench<T>(file: string, cpus: string | null): Promise<T> {
  const entry = join(repositoryRoot, 'bench/src/micro', file);
  const child = spawnProcess(file, process.execPath, ['--conditions=source', '--import', 'tsx', entry], {
    cpus,
  });
  let stdout = '';
  child.child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
  });
  const code = await new Promise<number | null>((resolve) => child.child.once('exit', resolve));
  if (code !== 0) throw new Error(`${file} failed (exit ${code}):\n${child.output()}`);
  return JSON.parse(stdout) as T;
}

async function startTarget(name: TargetName, config: BenchConfig, mock: Target, cpus: string | null) {
  switch (name) {
    case 'mock':
      return mock;
    case 'bare':
      return startBareProxy(mock.url, cpus);
    case 'switchyard':
      return startSwitchyard(config, mock.url, cpus);
    case 'portkey':
      return startPortkey(mock.url, cpus);
    case 'pool':
      return startPoolProxy(mock.url, cpus);
    case 'floor':
      return startLedgerProxy(mock.url, cpus, '7');
  }
}

/**
 * A freshly started gateway of the alternated rounds (saturation-rounds.ts), probed and warmed up
 * at saturation for BENCH_ROUND_WARMUP seconds.
 */
async function warmFresh(target: Target, load: LoadClient, config: BenchConfig, body: Bodies): Promise<void> {
  await probeTarget(target, body);
  // Until the JIT has compiled the hot path, a large server is slower than a small proxy (Switchyard
  // 10-15% in its first 6 s at saturation, the bare proxy not measurably): warm up to steady state.
  const warmupSeconds = config.roundWarmupSeconds ?? config.warmupSeconds;
  if (warmupSeconds <= 0) return;
  const job = { connections: config.saturationConnections, durationSeconds: warmupSeconds };
  const chat = chatRequest(target, body.chat);
  await measure(target, load, { kind: 'saturate', ...chat, ...job }, { loopDelay: false });
}

/**
 * One measured window of a warmed-up gateway of the rounds: a short saturation that is not
 * measured (the gateway sat idle while the others ran), then `durationSeconds` / windows at
 * saturation. Its CPU is read until AFTER_WINDOW_MS after the window.
 */
async function saturateWindow(target: Target, load: LoadClient, config: BenchConfig, body: Bodies) {
  const chat = chatRequest(target, body.chat);
  const windows = config.roundWindows ?? 1;
  const connections = config.saturationConnections;
  const rewarm = config.roundRewarmSeconds ?? 0;
  if (rewarm > 0) await load.run({ kind: 'saturate', ...chat, connections, durationSeconds: rewarm });
  const { pid } = target.process;
  const cpuBefore = readCpuMs(pid);
  const durationSeconds = config.durationSeconds / windows;
  const result = await Promise.race([
    load.run({ kind: 'saturate', ...chat, connections, durationSeconds }),
    target.process.exited,
  ]);
  await new Promise((resolve) => setTimeout(resolve, AFTER_WINDOW_MS));
  const cpuMs = readCpuMs(pid) - cpuBefore;
  return { rps: result.rps, ok: result.ok, failed: result.failed, cpuMs };
}

/**
 * Measures what other processes use before the run; with BENCH_WAIT_IDLE=<seconds>, waits (up to
 * that long) for the machine to go quiet. Returns the last measurement, % of all cores.
 */
async function machineBusy(cores: number, windowMs: number): Promise<number> {
  const patience = Number(process.env.BENCH_WAIT_IDLE ?? 0) * 1000;
  const deadline = Date.now() + patience;
  for (;;) {
    const meter = backgroundCpu(cores);
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const busy = meter.stop();
    if (busy < 10 || Date.now() >= deadline) {
      if (busy >= 10)
        log(`WARNING: other processes use ${busy.toFixed(0)}% of the CPU; results will be skewed`);
      return busy;
    }
    log(`other processes use ${busy.toFixed(0)}% of the CPU; waiting for a quiet machine`);
  }
}

async function main(): Promise<void> {
  const config = loadBenchConfig();
  const cores = availableParallelism();
  const busyBeforeStartPercent = await machineBusy(cores, config.quick ? 1_000 : 3_000);
  const started = performance.now();
  const pinned = config.pin && hasTaskset;
  const loadCpus = pinned ? '0' : null;
  const targetCpus = pinned ? '1' : null;
  const notes: string[] = [];
  const streams = concurrencyLimit(config.concurrentStreams, notes);
  if (config.targets.includes('portkey')) checkPortkeyInstalled();
  if (config.targets.includes('switchyard')) {
    log(`building Switchyard (${config.switchyardMode})`);
    buildSwitchyard(config);
  }
  log(
    `targets: ${config.targets.join(', ')}; ${config.durationSeconds} s per phase${pinned ? '; pinned' : ''}`,
  );
  const mock = await startMock(loadCpus);
  const load = await startLoadClient(loadCpus);
  const settings = Object.entries(process.env)
    .filter(([name]) => name.startsWith('BENCH_'))
    .map(([name, value]) => `${name}=${value}`)
    .sort();
  const niceness = getPriority();
  const run: BenchRun = {
    command: [
      ...(niceness !== 0 ? [`nice -n ${niceness}`] : []),
      ...(settings.length > 0 ? ['env', ...settings] : []),
      'npm run bench',
    ].join(' '),
    config,
    machine: machineInfo(config),
    pinned,
    busyBeforeStartPercent,
    notes,
    targets: [],
    elapsedSeconds: 0,
  };
  for (const name of config.targets) {
    log(`starting ${name}`);
    const background = backgroundCpu(cores);
    const target = await startTarget(name, config, mock, name === 'mock' ? loadCpus : targetCpus);
    try {
      const results = await benchTarget(target, load, config, streams);
      results.backgroundCpuPercent = background.stop();
      if (results.backgroundCpuPercent >= 10) {
        log(`WARNING: other processes used ${results.backgroundCpuPercent.toFixed(0)}% of the CPU meanwhile`);
      }
      run.targets.push(results);
    } finally {
      if (target !== mock) await target.stop();
    }
  }
  if (config.saturationRounds > 0) {
    log(`alternated saturation rounds: ${config.saturationRounds}`);
    const roundBodies = bodies(config);
    run.saturationRounds = await runSaturationRounds({
      rounds: config.saturationRounds,
      names: roundTargets(config),
      windows: config.roundWindows ?? 1,
      start: (name) => startTarget(name, config, mock, targetCpus),
      warm: (target) => warmFresh(target, load, config, roundBodies),
      saturate: (target) => saturateWindow(target, load, config, roundBodies),
      log,
    });
  }
  log('sensitive-word check: 10,000 words over a 4 kB prompt');
  run.sensitiveWords = await runMicroBench<SensitiveWordsResult>('sensitive-words-bench.ts', targetCpus);
  if (config.targets.includes('switchyard')) {
    log('database work per relay call (billing and log statements, SQLite)');
    run.billing = await runMicroBench<BillingBenchResult>('billing-bench.ts', targetCpus);
  }
  run.elapsedSeconds = (performance.now() - started) / 1000;
  const markdown = renderReport(run);
  process.stdout.write(`\n${markdown}\n`);
  if (config.outputPath) {
    const file = join(repositoryRoot, config.outputPath);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, markdown);
    log(`wrote ${config.outputPath}`);
  }
  const raw = join(repositoryRoot, 'bench/results', config.quick ? 'quick.json' : 'latest.json');
  mkdirSync(dirname(raw), { recursive: true });
  writeFileSync(raw, `${JSON.stringify(run, null, 2)}\n`);
  log(`raw results in ${raw}; the run took ${run.elapsedSeconds.toFixed(0)} s`);
}

let interrupted = false;
process.once('SIGINT', () => {
  interrupted = true;
  log('interrupted: stopping the processes this run started');
  void stopAll().then(() => process.exit(130));
});

main().then(
  async () => {
    await stopAll();
    process.exit(0);
  },
  async (error: unknown) => {
    if (!interrupted) {
      process.stderr.write(`\nbench FAILED: ${error instanceof Error ? error.message : String(error)}\n`);
    }
    await stopAll();
    process.exit(1);
  },
);
