/** The report's view of the alternated saturation rounds (saturation-rounds.ts). */
import type { TargetName } from './bench-config.ts';
import type { BenchRun } from './bench-results.ts';
import { table } from './markdown-table.ts';
import { describeSwing, rateSwing } from './report-floors.ts';
import { AFTER_WINDOW_MS, cpuPerRequest, type RoundRatio, throughputRatio } from './saturation-rounds.ts';
import { TARGET_LABELS } from './targets.ts';

const percent = (ratio: number) => `${Math.round(ratio * 100)}%`;
const times = (ratio: number) => `${ratio.toFixed(2)}×`;

/**
 * Switchyard's throughput over the bare proxy's, the pool proxy's and Portkey's, from the rounds;
 * and, when the rounds ran the durable-billing floor, the floor's over the bare proxy's and
 * Switchyard's over the floor's.
 */
export function roundRatios(run: BenchRun): {
  bare?: RoundRatio;
  pool?: RoundRatio;
  portkey?: RoundRatio;
  floorOfBare?: RoundRatio;
  ofFloor?: RoundRatio;
} {
  const rounds = run.saturationRounds;
  if (!rounds) return {};
  return {
    bare: throughputRatio(rounds, 'switchyard', 'bare'),
    pool: throughputRatio(rounds, 'switchyard', 'pool'),
    portkey: throughputRatio(rounds, 'switchyard', 'portkey'),
    floorOfBare: throughputRatio(rounds, 'floor', 'bare'),
    ofFloor: throughputRatio(rounds, 'switchyard', 'floor'),
  };
}

/** "47% (rounds: 45%, 47%, 49%)": the median and each round's ratio. */
export function describeRatio(ratio: RoundRatio, as: 'percent' | 'times'): string {
  const format = as === 'percent' ? percent : times;
  return `${format(ratio.median)} (rounds: ${ratio.perRound.map(format).join(', ')})`;
}

const formatSeconds = (seconds: number) => `${Number(seconds.toFixed(2))} s`;

/** The section, or '' when the run had no rounds. */
export function roundsSection(run: BenchRun): string {
  const rounds = run.saturationRounds;
  if (!rounds) return '';
  const names = (Object.keys(rounds) as TargetName[]).filter((name) => (rounds[name]?.length ?? 0) > 0);
  if (names.length === 0) return '';
  const count = Math.max(...names.map((name) => rounds[name]!.length));
  const header = [
    'target',
    ...Array.from({ length: count }, (_, index) => `round ${index + 1}: req/s, CPU µs/req`),
    'req/s: median (lowest–highest, spread)',
    'median CPU µs/req',
  ];
  const rows = names.map((name) => {
    const entries = rounds[name]!;
    const cpu = cpuPerRequest(entries);
    const cells = Array.from({ length: count }, (_, index) => {
      const entry = entries.find((candidate) => candidate.round === index + 1);
      if (!entry) return '—';
      const failed = entry.failed > 0 ? `, ${entry.failed} failed` : '';
      return `${Math.round(entry.rps).toLocaleString('en-US')}, ${Math.round(cpu.perRound[entries.indexOf(entry)]!)}${failed}`;
    });
    const swing = rateSwing(entries);
    return [
      TARGET_LABELS[name],
      ...cells,
      swing ? describeSwing(swing, '') : '—',
      String(Math.round(cpu.median)),
    ];
  });
  const ratios = roundRatios(run);
  const lines = [
    ratios.pool
      ? `Switchyard's throughput against the pool proxy: ${describeRatio(ratios.pool, 'percent')}.`
      : '',
    ratios.bare
      ? `${ratios.pool ? 'Against' : "Switchyard's throughput against"} the bare proxy: ${describeRatio(ratios.bare, 'percent')}.`
      : '',
    ratios.portkey ? `Against Portkey: ${describeRatio(ratios.portkey, 'times')}.` : '',
    ratios.floorOfBare
      ? `The durable-billing floor (the bare proxy plus a key check, the body parsed and a reservation, a settlement and a log row in SQLite per call: \`bench/src/ledger-proxy.mjs\`) against the bare proxy: ${describeRatio(ratios.floorOfBare, 'percent')}; Switchyard against that floor: ${ratios.ofFloor ? describeRatio(ratios.ofFloor, 'percent') : '—'}.`
      : '',
  ].filter(Boolean);
  const roundWarmup = run.config.roundWarmupSeconds;
  const warmup =
    roundWarmup === undefined
      ? 'warms it up as above'
      : `warms it up at saturation for ${roundWarmup} s (the JIT's steady state)`;
  const windows = run.config.roundWindows;
  const measured =
    windows === undefined
      ? `(Switchyard with a new database), ${warmup} and saturates it for one phase, one gateway
after another (the order rotates each round)`
      : `(Switchyard with a new database) and ${warmup}. With all of them alive, it then
saturates them in turn in ${windows} window${windows === 1 ? '' : 's'} of ${formatSeconds(run.config.durationSeconds / windows)} each (the round's order, then reversed; the
order rotates each round), each after ${formatSeconds(run.config.roundRewarmSeconds ?? 0)} at saturation that is not measured, so that a
slow stretch of the machine falls on neighbouring windows of every gateway. A gateway's rate in a
round is its windows' mean, and its CPU is read until ${formatSeconds(AFTER_WINDOW_MS / 1000)} after each window`;
  return `## Saturation, alternated rounds

The per-target phases above run each gateway for minutes before the next one starts, and this
machine's speed drifts within that time. Here each of ${count} rounds starts every gateway afresh
${measured}. Each ratio is taken within a round, and the targets table uses the median of those
ratios.

${table(header, rows)}

${lines.join(' ')}`;
}
