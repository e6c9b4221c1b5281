/** Renders one run as Markdown: tables per phase, ratios, the targets, machine and versions. */
import type { BenchConfig, TargetName } from './bench-config.ts';
import type { BenchRun, PhaseResult, SoakResult, TargetResults } from './bench-results.ts';
import type { LatencySummary } from './load/latency-recorder.ts';
import { table } from './markdown-table.ts';
import { comparedWith, floorsInRounds, floorsSection } from './report-floors.ts';
import { reproduceSection } from './report-reproduce.ts';
import { describeRatio, roundRatios, roundsSection } from './report-rounds.ts';
import {
  analysisSection,
  billingSection,
  sensitiveWordsSection,
  sensitiveWordsTargetRow,
} from './report-sections.ts';
import type { RoundRatio } from './saturation-rounds.ts';

const fixed = (value: number, digits = 2) => (Number.isFinite(value) ? value.toFixed(digits) : '—');
const rate = (value: number) => Math.round(value).toLocaleString('en-US');
const megabytes = (bytes: number) => `${Math.round(bytes / 2 ** 20)}`;
const signed = (value: number) => `${value >= 0 ? '+' : '−'}${Math.abs(value).toFixed(2)}`;

/** The soak's growth as shown in the targets table: the heap after full collections, else its floor, else RSS's. */
function soakGrowth(soak: SoakResult): string {
  if (soak.heapAfterMajorGc) {
    return `heap after full collections ${fixed(soak.heapAfterMajorGc.trendMbPerMinute, 2)} MB/min (median of pairwise slopes over ${soak.heapAfterMajorGc.readings} readings; least squares ${fixed(soak.heapAfterMajorGc.slopeMbPerMinute, 2)}, RSS ${fixed(soak.slopeMbPerMinute, 2)})`;
  }
  if (soak.heapFloorTrendMbPerMinute !== undefined) {
    return `heap floor ${fixed(soak.heapFloorTrendMbPerMinute, 2)} MB/min (median of pairwise slopes; least squares ${fixed(soak.heapFloorSlopeMbPerMinute ?? Number.NaN, 2)}, RSS ${fixed(soak.slopeMbPerMinute, 2)})`;
  }
  return soak.heapFloorSlopeMbPerMinute !== undefined
    ? `heap floor ${fixed(soak.heapFloorSlopeMbPerMinute, 2)} MB/min (RSS ${fixed(soak.slopeMbPerMinute, 2)} MB/min)`
    : `RSS ${fixed(soak.slopeMbPerMinute, 2)} MB/min`;
}

/**
 * The growth the verdict judges: the robust trend of the heap after full collections, else of the
 * heap floor, else the floor's least-squares slope, else RSS's (older runs recorded less).
 */
const soakVerdictSlope = (soak: SoakResult) =>
  soak.heapAfterMajorGc?.trendMbPerMinute ??
  soak.heapFloorTrendMbPerMinute ??
  soak.heapFloorSlopeMbPerMinute ??
  soak.slopeMbPerMinute;

function failures(phase: PhaseResult): string {
  const { failed, ok } = phase.load;
  if (failed === 0) return '0';
  return `${failed} (${fixed((failed * 100) / (failed + ok), 1)}%)`;
}

function byName(run: BenchRun, name: TargetName): TargetResults | undefined {
  return run.targets.find((target) => target.name === name);
}

function added(value: LatencySummary | undefined, base: LatencySummary | undefined, key: 'p50' | 'p99') {
  if (!value || !base || value.count === 0 || base.count === 0) return Number.NaN;
  return value[key] - base[key];
}

function latencyTable(
  run: BenchRun,
  pick: (target: TargetResults) => PhaseResult | undefined,
  options: { firstByte?: boolean; unit?: string } = {},
): string {
  const base = byName(run, 'mock');
  const baseLatency = (phase: PhaseResult | undefined) =>
    options.firstByte ? phase?.load.firstByte : phase?.load.latency;
  const header = ['target', `${options.unit ?? 'req'}/s`, 'p50 ms', 'p99 ms', 'added p50 ms', 'added p99 ms'];
  if (options.firstByte)
    header.splice(2, 0, 'first byte p50', 'first byte p99', 'added first byte p50', 'added first byte p99');
  header.push('failed');
  const rows: string[][] = [];
  for (const target of run.targets) {
    const phase = pick(target);
    if (!phase) continue;
    const basePhase = base ? pick(base) : undefined;
    const { latency } = phase.load;
    const isBase = target.name === 'mock';
    const row = [
      target.label,
      rate(phase.load.rps),
      fixed(latency.p50),
      fixed(latency.p99),
      isBase ? '—' : signed(added(latency, basePhase?.load.latency, 'p50')),
      isBase ? '—' : signed(added(latency, basePhase?.load.latency, 'p99')),
    ];
    if (options.firstByte) {
      const first = phase.load.firstByte;
      row.splice(
        2,
        0,
        fixed(first?.p50 ?? Number.NaN),
        fixed(first?.p99 ?? Number.NaN),
        isBase ? '—' : signed(added(first, baseLatency(basePhase), 'p50')),
        isBase ? '—' : signed(added(first, baseLatency(basePhase), 'p99')),
      );
    }
    row.push(failures(phase));
    rows.push(row);
  }
  return table(header, rows) + loopDelayNote(run, pick);
}

/**
 * Switchyard's event-loop delay during the phase, from its /metrics: how long its loop could not
 * run its timers (long tasks, collection pauses, time descheduled), beside the request latencies.
 */
function loopDelayNote(run: BenchRun, pick: (target: TargetResults) => PhaseResult | undefined): string {
  const switchyard = byName(run, 'switchyard');
  const delay = switchyard ? pick(switchyard)?.loopDelay : undefined;
  if (!delay) return '';
  return `\n\nSwitchyard's event-loop delay during this phase (\`nodejs_eventloop_lag_*\` in its /metrics, a timer every 10 ms; the delay beyond those 10 ms): p99 ${fixed(delay.p99Ms)} ms, longest ${fixed(delay.maxMs)} ms.`;
}

function saturationTable(run: BenchRun): string {
  const bare = byName(run, 'bare')?.saturation?.load.rps;
  const portkey = byName(run, 'portkey')?.saturation?.load.rps;
  const rows = run.targets.flatMap((target) => {
    const phase = target.saturation;
    if (!phase) return [];
    const { load } = phase;
    const cpuPerRequest = load.ok > 0 ? (phase.cpuMs * 1000) / load.ok : Number.NaN;
    const busy = (phase.cpuMs * 100) / (load.seconds * 1000);
    return [
      [
        target.label,
        rate(load.rps),
        fixed(load.latency.p50),
        fixed(load.latency.p99),
        `${fixed(busy, 0)}%`,
        fixed(cpuPerRequest, 0),
        megabytes(phase.peakRss),
        bare ? `${fixed((load.rps * 100) / bare, 0)}%` : '—',
        portkey ? `${fixed(load.rps / portkey, 2)}×` : '—',
        failures(phase),
      ],
    ];
  });
  return table(
    [
      'target',
      'req/s',
      'p50 ms',
      'p99 ms',
      'target CPU',
      'CPU µs/req',
      'peak RSS MB',
      'vs bare proxy',
      'vs Portkey',
      'failed',
    ],
    rows,
  );
}

function concurrencyTable(run: BenchRun): string {
  const rows = run.targets.flatMap((target) => {
    const phase = target.concurrency;
    if (!phase) return [];
    const { load } = phase;
    const perStream = load.peakOpen
      ? ((phase.peakRss - phase.baselineRss) / load.peakOpen / 1024).toFixed(0)
      : '—';
    return [
      [
        target.label,
        String(phase.requested),
        String(load.opened ?? 0),
        String(load.peakOpen ?? 0),
        String(load.ok),
        failures(phase),
        load.allOpenAfterMs == null ? 'never' : fixed(load.allOpenAfterMs / 1000, 1),
        fixed(load.firstByte?.p99 ?? Number.NaN, 0),
        megabytes(phase.baselineRss),
        megabytes(phase.peakRss),
        perStream,
        megabytes(phase.afterRss),
      ],
    ];
  });
  return table(
    [
      'target',
      'streams',
      'opened',
      'peak open',
      'completed',
      'failed',
      'all open after s',
      'first byte p99 ms',
      'RSS before MB',
      'peak RSS MB',
      'KB per stream',
      'RSS after MB',
    ],
    rows,
  );
}

function verdict(ok: boolean | undefined): string {
  if (ok === undefined) return 'not measured';
  return ok ? 'met' : 'missed';
}

/**
 * A throughput target's row: with alternated rounds the verdict is their median ratio (measured
 * seconds apart) and the per-target phases' ratio (minutes apart) is shown beside it; without
 * rounds, the per-target phases' ratio alone.
 */
function throughputRow(
  name: string,
  rounds: RoundRatio | undefined,
  switchyard: number | undefined,
  other: number | undefined,
  threshold: number,
  as: 'percent' | 'times',
): string[] {
  const phases = switchyard && other ? switchyard / other : undefined;
  const phasesText =
    phases === undefined ? '' : as === 'percent' ? `${fixed(phases * 100, 0)}%` : `${fixed(phases, 2)}×`;
  if (rounds) {
    const beside = phasesText ? `; per-target phases ${phasesText}` : '';
    return [name, `${describeRatio(rounds, as)}${beside}`, verdict(rounds.median >= threshold)];
  }
  return [name, phasesText || '—', verdict(phases === undefined ? undefined : phases >= threshold)];
}

/**
 * The verdict table: what the relay is held to (throughput against the bare proxy and Portkey,
 * added latency, streaming overhead, concurrent streams, memory growth, the sensitive-word check).
 */
export function targetsTable(run: BenchRun): string {
  const switchyard = byName(run, 'switchyard');
  const bare = byName(run, 'bare');
  const portkey = byName(run, 'portkey');
  const mock = byName(run, 'mock');
  const rows: string[][] = [];
  const satS = switchyard?.saturation?.load.rps;
  const satB = bare?.saturation?.load.rps;
  const satP = portkey?.saturation?.load.rps;
  const rounds = roundRatios(run);
  const bareRow = throughputRow(
    'Throughput ≥ 80% of the bare proxy (chat, saturation)',
    rounds.bare,
    satS,
    satB,
    0.8,
    'percent',
  );
  // The reference for this target: how close a gateway that only bills durably comes.
  if (rounds.floorOfBare) {
    bareRow[1] += `; the durable-billing floor ${Math.round(rounds.floorOfBare.median * 100)}%`;
  }
  rows.push(bareRow);
  // The buffered floor has no target: it shows how much of the gap to the bare proxy is streaming.
  if (rounds.pool) {
    rows.push([
      'Throughput against the pool proxy (chat, saturation; reported, no target)',
      describeRatio(rounds.pool, 'percent'),
      '—',
    ]);
  }
  rows.push(
    throughputRow('Throughput ≥ 5× Portkey (chat, saturation)', rounds.portkey, satS, satP, 5, 'times'),
  );
  const at1000 = switchyard?.fixedRates[1000];
  const base1000 = mock?.fixedRates[1000];
  const p50 = added(at1000?.load.latency, base1000?.load.latency, 'p50');
  const p99 = added(at1000?.load.latency, base1000?.load.latency, 'p99');
  rows.push([
    'Added latency p50 ≤ 1 ms at 1,000 req/s',
    Number.isNaN(p50) ? '—' : `${signed(p50)} ms`,
    verdict(Number.isNaN(p50) ? undefined : p50 <= 1),
  ]);
  // The floor any Node gateway starts from on this machine: the bare proxy's own added p99.
  const bareP99 = added(bare?.fixedRates[1000]?.load.latency, base1000?.load.latency, 'p99');
  rows.push([
    'Added latency p99 ≤ 3 ms at 1,000 req/s',
    Number.isNaN(p99)
      ? '—'
      : `${signed(p99)} ms${Number.isNaN(bareP99) ? '' : ` (bare proxy ${signed(bareP99)} ms)`}`,
    verdict(Number.isNaN(p99) ? undefined : p99 <= 3),
  ]);
  const firstByte = added(switchyard?.streams?.load.firstByte, mock?.streams?.load.firstByte, 'p50');
  rows.push([
    'Streaming first-byte overhead ≤ 1 ms (p50)',
    Number.isNaN(firstByte) ? '—' : `${signed(firstByte)} ms`,
    verdict(Number.isNaN(firstByte) ? undefined : firstByte <= 1),
  ]);
  const concurrency = switchyard?.concurrency;
  const streamsOk = concurrency
    ? concurrency.requested >= 5000 &&
      concurrency.load.ok === concurrency.requested &&
      concurrency.peakRss < 600 * 2 ** 20
    : undefined;
  rows.push([
    '5,000 concurrent streams under 600 MB RSS',
    concurrency
      ? `${concurrency.load.ok}/${concurrency.requested} completed, peak ${megabytes(concurrency.peakRss)} MB`
      : '—',
    verdict(streamsOk),
  ]);
  const soak = switchyard?.soak;
  rows.push([
    'No growth over a 10-minute soak (slope)',
    soak
      ? `${soakGrowth(soak)} over ${fixed(soak.seconds / 60, 1)} min at ${soak.rate} req/s`
      : 'not part of this run (BENCH_SOAK=600)',
    // "No growth": a slope under 0.5 MB/min passes; a falling one is not growth. The heap floor
    // (what survives collection) decides when it was sampled, by the median of its pairwise slopes
    // (a window without a full collection leaves an outlier); RSS swings with the collector.
    soak ? verdict(soak.seconds >= 600 && soakVerdictSlope(soak) < 0.5) : 'not measured',
  ]);
  rows.push(sensitiveWordsTargetRow(run));
  return table(['target', 'this run', 'verdict'], rows);
}

/** How Switchyard was started, when the results say: with `npm start`'s Node flags. */
export function switchyardFlagsNote(flags: readonly string[] | undefined): string {
  if (flags === undefined) return '';
  return flags.length === 0
    ? ', started as `npm start` does'
    : `, started as \`npm start\` does: \`node ${flags.join(' ')}\``;
}

export function renderReport(run: BenchRun): string {
  const { config, machine } = run;
  const sections: string[] = [];
  sections.push(`# Benchmarks

Switchyard's relay measured side by side with ${comparedWith(run)}, all relaying to the
project's mock upstream on the same machine, in one run of \`${run.command ?? 'npm run bench'}\`.${
    config.quick ? ' **Quick smoke run: the numbers are not meaningful.**' : ''
  } Ratios come from this single run and are not asserted by any test. "Added" latency is a
target's percentile minus the same percentile of the mock upstream called directly under the
same load.

- Date: ${machine.date.slice(0, 10)} (the run took ${Math.round(run.elapsedSeconds)} s${config.soakSeconds > 0 ? `, ${config.soakSeconds} s of it the soak` : ''})
- Machine: ${machine.cores} × ${machine.cpuModel}, ${machine.memoryGiB} GiB memory, Linux ${machine.kernel}, open-file limit ${machine.fileDescriptorLimit}
- Node ${machine.node}; Switchyard ${machine.versions.switchyard} (commit ${machine.commit}${switchyardFlagsNote(machine.switchyardNodeFlags)}), fastify ${machine.versions.fastify}, undici ${machine.versions.undici}
- autocannon ${machine.versions.autocannon}; @portkey-ai/gateway ${machine.versions['@portkey-ai/gateway']} with @hono/node-server ${machine.versions['@hono/node-server']} (npm override), hono ${machine.versions.hono}
- CPU placement: ${run.pinned ? 'each gateway pinned to CPU 1; mock upstream and load generator share CPU 0 (taskset)' : 'not pinned: every process shares all cores'}
- Phases: ${config.durationSeconds} s each after ${config.warmupSeconds} s of warm-up (chat; the embeddings and streaming phases after as long of their own calls), lightest first, 1 s apart; Switchyard with ${
    config.database === 'postgres'
      ? 'a fresh PostgreSQL database'
      : config.database === 'mysql'
        ? 'a fresh MariaDB/MySQL database'
        : 'SQLite'
  }${config.redis ? ' and Redis' : ''}, \`LOG_LEVEL=warn\`, default options (consume logs on, batched)`);
  const background = run.targets
    .map((target) => `${target.label} ${fixed(target.backgroundCpuPercent, 0)}%`)
    .join(', ');
  sections.push(
    `Other processes on the machine (not part of the benchmark) used ${fixed(run.busyBeforeStartPercent, 0)}% of the CPU ` +
      `just before the run, and during each target's phases: ${background}.` +
      (run.targets.some((target) => target.backgroundCpuPercent >= 10) || run.busyBeforeStartPercent >= 10
        ? ' **The machine was not idle throughout (above 10%): treat the affected rows with suspicion.**'
        : ''),
  );
  if (run.notes.length > 0) sections.push(run.notes.map((note) => `> ${note}`).join('\n>\n'));

  sections.push(`## Targets

What the relay is held to on this machine: its throughput against the bare proxy and against
Portkey, the latency it adds, its streaming overhead, concurrent streams, memory over a soak and
the cost of the sensitive-word check.

${targetsTable(run)}`);
  sections.push(floorsSection(run));
  const analysis = analysisSection(run);
  if (analysis) sections.push(analysis);

  sections.push(`## Non-stream chat at saturation

Closed loop: ${config.saturationConnections} autocannon connections, as fast as each target answers. "Target CPU" is
the share of one core the target process used (user + system, from /proc); below ~90% the target
was not the bottleneck (the mock and the load generator were). CPU µs/req is that CPU time divided
by the requests served: the cost per request, independent of how the cores were shared.

${saturationTable(run)}`);
  const alternated = roundsSection(run);
  if (alternated) sections.push(alternated);

  for (const value of config.rates) {
    sections.push(`## Non-stream chat at ${value.toLocaleString('en-US')} req/s

${latencyTable(run, (target) => target.fixedRates[value])}`);
  }

  sections.push(`## Streamed chat

${config.streamRate} new streams per second (open loop) for ${config.durationSeconds} s; each stream has
${config.streamChunks} content chunks ${config.streamIntervalMs} ms apart (mock scenario
\`slow-stream-${config.streamIntervalMs},chunks-${config.streamChunks}\`) and asks for usage. First byte = first body
bytes; total = \`data: [DONE]\` received.

${latencyTable(run, (target) => target.streams, { firstByte: true, unit: 'streams' })}`);

  sections.push(`## Embeddings at ${config.embeddingsRate.toLocaleString('en-US')} req/s

${latencyTable(run, (target) => target.embeddings)}`);

  sections.push(`## Concurrent slow streams

Streams opened in batches of 250 every 25 ms and held open for about ${config.concurrentHoldSeconds} s (one event
every ${config.concurrentIntervalMs} ms). RSS is the target process's resident memory; "KB per stream" =
(peak − before) / peak open streams. A gateway that caps its upstream connections per origin
queues the streams beyond the cap until a connection frees up; the client gives up on a stream
after ${config.concurrentHoldSeconds + 20} s without response headers (\`Headers Timeout Error\`).

${concurrencyTable(run)}`);

  const soakOf = run.targets.find((target) => target.soak);
  if (soakOf?.soak) {
    const { soak } = soakOf;
    sections.push(`## Soak

${soakOf.label} at ${soak.rate} chat req/s for ${fixed(soak.seconds / 60, 1)} min (after the phases every target runs,
before the concurrent streams): ${rate(soak.load.ok)} requests,
${failures(soak)} failed, p50 ${fixed(soak.load.latency.p50)} ms, p99 ${fixed(soak.load.latency.p99)} ms. RSS ${megabytes(soak.startRss)} MB at
the start, ${megabytes(soak.endRss)} MB at the end, peak ${megabytes(soak.peakRss)} MB; least-squares slope over the last 80%:
**${fixed(soak.slopeMbPerMinute, 2)} MB/min**.${
      soak.rssPerMinuteMb?.length
        ? ` RSS at the end of each minute (MB): ${soak.rssPerMinuteMb.join(', ')}.`
        : ''
    }${
      soak.heapFloorSlopeMbPerMinute !== undefined
        ? ` The V8 heap's floor (lowest heap in use of each 30 s, from /metrics; what survives garbage
collection) moved **${fixed(soak.heapFloorSlopeMbPerMinute, 2)} MB/min** by least squares${
            soak.heapFloorTrendMbPerMinute !== undefined
              ? ` and **${fixed(soak.heapFloorTrendMbPerMinute, 2)} MB/min** by the median of its pairwise slopes (Theil–Sen)`
              : ''
          }${
            soak.heapFloorPerMinuteMb?.length
              ? `; per minute (MB): ${soak.heapFloorPerMinuteMb.join(', ')}`
              : ''
          }.${
            soak.heapAfterMajorGc
              ? ` The heap right after each full collection (${soak.heapAfterMajorGc.readings} readings from
/metrics) moved **${fixed(soak.heapAfterMajorGc.trendMbPerMinute, 2)} MB/min** by the median of its pairwise slopes
(least squares ${fixed(soak.heapAfterMajorGc.slopeMbPerMinute, 2)}); per minute (MB): ${soak.heapAfterMajorGc.perMinuteMb.join(', ')}.
The verdict uses this series: it is what the process keeps, read when the collector has just
run, whereas RSS follows the collector's rhythm and a window without a full collection leaves a
high floor.`
              : ` The verdict uses the heap floor's median slope: RSS follows the collector's rhythm, and a
30-second window in which no full collection ran leaves a high floor that tilts a least-squares line.`
          }`
        : ''
    }`);
  }

  const database = billingSection(run);
  if (database) sections.push(database);
  const sensitive = sensitiveWordsSection(run);
  if (sensitive) sections.push(sensitive);

  const failureNotes = run.targets.flatMap((target) => {
    const phases: [string, PhaseResult | undefined][] = [
      ...Object.entries(target.fixedRates).map(([value, phase]): [string, PhaseResult] => [
        `chat at ${value}/s`,
        phase,
      ]),
      ['chat at saturation', target.saturation],
      ['embeddings', target.embeddings],
      ['streamed chat', target.streams],
      ['concurrent streams', target.concurrency],
      ['soak', target.soak],
    ];
    return phases.flatMap(([name, phase]) =>
      phase && phase.load.failed > 0
        ? [
            `- ${target.label}, ${name}: ${phase.load.failed} failed; first: ${phase.load.firstFailure ?? 'unknown'}`,
          ]
        : [],
    );
  });
  if (failureNotes.length > 0) sections.push(`## Failed requests\n\n${failureNotes.join('\n')}`);

  sections.push(`## Method

- Every process is separate: the mock upstream, the load generator, and the target under test;
  targets run one at a time and are stopped before the next starts. All traffic is on 127.0.0.1.
  With alternated saturation rounds (\`BENCH_SATURATION_ROUNDS\`, 5 in a full run) the gateways${
    floorsInRounds(run) ? `, ${floorsInRounds(run)} with them,` : ''
  } are
  then started afresh each round and warmed up at saturation, and saturated in turn in short
  windows while all of them stay alive (\`BENCH_ROUND_WINDOWS\`, 4 in a full run).
- Request: OpenAI chat (\`gpt-4o-mini\`, a system and a user message, \`max_tokens\` 64), the
  same bytes for every target. Switchyard authenticates a token, prices and reserves quota,
  relays to a channel pointed at the mock, settles and writes a consume log row — all of its
  normal work. Portkey gets \`x-portkey-provider: openai\` and \`x-portkey-custom-host\` (the mock).
${pacingMethod(config)}
  Requests that are not 2xx are counted as failed and excluded from latency.
- Streams are timed with undici (autocannon sees only whole responses): first body byte and end.
- The load generator and the mock share one core when pinned, so the absolute numbers are those
  of a 2-core machine doing everything at once; compare the rows with each other.`);
  sections.push(reproduceSection());
  return `${sections.join('\n\n')}\n`;
}

/** How the fixed-rate phases were sent (BENCH_PACER), for the Method section. */
function pacingMethod(config: BenchConfig): string {
  // Runs recorded before BENCH_PACER existed have no pacer: they used autocannon.
  if (config.pacer !== 'even') {
    return `- Fixed rates (\`BENCH_PACER=autocannon\`): autocannon's rate limit sends each connection's share
  of a second back-to-back, so the load generator runs up to 100 small autocannon instances
  (4 connections, 20 req/s each) with their one-second windows staggered evenly across the second
  (a short, 4-wide run of requests every 1/N s). Response times come from autocannon's
  \`response\` events at sub-millisecond resolution (its own histogram keeps whole milliseconds).`;
  }
  return `- Fixed rates: evenly spaced arrivals (open loop, as wrk2 or k6's constant arrival rate): request
  i is due at i/rate s, a 1 ms timer sends whatever has come due on free keep-alive connections
  (undici, no cap), whether or not earlier requests have answered; each is timed from its send to
  the end of its body. autocannon's own rate limit would send each connection's share of a second
  as one burst (\`BENCH_PACER=autocannon\` runs the older staggered-instances approximation).
  Saturation stays a closed autocannon loop.`;
}
