/**
 * The report's comparison of Switchyard with the floors: what each floor does and leaves out,
 * Switchyard's throughput ratio to each from the alternated rounds, and how far every gateway's
 * rate swung from round to round (a ratio read from one round says little when the numerator
 * moves more than the denominator).
 */
import type { TargetName } from './bench-config.ts';
import type { BenchRun } from './bench-results.ts';
import { table } from './markdown-table.ts';
import { median, type RoundRatio, type SaturationRound, throughputRatio } from './saturation-rounds.ts';
import { TARGET_LABELS } from './targets.ts';

type FloorName = Extract<TargetName, 'pool' | 'bare' | 'floor'>;

interface Floor {
  name: FloorName;
  file: string;
  does: string;
  leavesOut: string;
}

/** The floors, cheapest first, in the words the report uses for them. */
export const FLOORS: readonly Floor[] = [
  {
    name: 'pool',
    file: 'bench/src/pool-proxy.mjs',
    does: 'node:http in front of one undici `Pool` to the upstream: reads the whole request body, sends it with `pool.request`, reads the whole answer and writes it with its length',
    leavesOut:
      'streaming (a streamed answer reaches the client only when it has ended), cancelling the upstream call when the client leaves, auth, parsing, routing, billing, logging',
  },
  {
    name: 'bare',
    file: 'bench/src/bare-proxy.mjs',
    does: 'node:http in front of one undici `Agent`: streams the request and the answer through `agent.stream`, with an `AbortController` per call so a client that leaves cancels the upstream call',
    leavesOut: 'auth, parsing, routing, billing, logging',
  },
  {
    name: 'floor',
    file: 'bench/src/ledger-proxy.mjs',
    does: 'the bare proxy plus a key check, the body parsed, and a reservation, a settlement and a log row in SQLite per call',
    leavesOut: 'routing, pricing tables, rate limits, content checks, metrics, logs',
  },
];

/** How far a gateway's rate moved over the rounds: lowest, highest, median, and (max − min) / median. */
export interface Swing {
  min: number;
  max: number;
  median: number;
  spread: number;
}

/** The swing of a list of values; undefined when it is empty or its median is not positive. */
export function swingOf(values: readonly number[]): Swing | undefined {
  if (values.length === 0) return undefined;
  const middle = median(values);
  if (!(middle > 0)) return undefined;
  const min = Math.min(...values);
  const max = Math.max(...values);
  return { min, max, median: middle, spread: (max - min) / middle };
}

/** The swing of a gateway's rate (req/s) over its rounds. */
export const rateSwing = (entries: readonly SaturationRound[]) => swingOf(entries.map((entry) => entry.rps));

const percent = (ratio: number) => `${Math.round(ratio * 100)}%`;
const rate = (value: number) => Math.round(value).toLocaleString('en-US');

/** "48% (45–53%)": a ratio's median and its lowest and highest round. */
export function ratioRange(ratio: RoundRatio): string {
  const whole = (value: number) => Math.round(value * 100);
  return `${percent(ratio.median)} (${whole(Math.min(...ratio.perRound))}–${percent(Math.max(...ratio.perRound))})`;
}

/** "11,200 req/s (9,800–12,400, spread 23%)"; `unit` '' in a column headed req/s. */
export function describeSwing(swing: Swing, unit = ' req/s'): string {
  return `${rate(swing.median)}${unit} (${rate(swing.min)}–${rate(swing.max)}, spread ${percent(swing.spread)})`;
}

/**
 * One sentence comparing the gateways' swings, Switchyard first, then the rest from the steadiest:
 * "From round to round Switchyard's rate spread 28% of its median; the pool proxy's 9%, ...".
 */
export function swingSentence(rounds: NonNullable<BenchRun['saturationRounds']>): string {
  const swings = (Object.keys(rounds) as TargetName[]).flatMap((name) => {
    const swing = rateSwing(rounds[name] ?? []);
    return swing && (rounds[name]?.length ?? 0) >= 2 ? [{ name, swing }] : [];
  });
  const switchyard = swings.find((entry) => entry.name === 'switchyard');
  if (!switchyard) return '';
  const others = swings
    .filter((entry) => entry.name !== 'switchyard')
    .sort((a, b) => a.swing.spread - b.swing.spread)
    .map((entry) => `${shortName(entry.name)} ${percent(entry.swing.spread)}`);
  return `From round to round Switchyard's rate spread ${percent(switchyard.swing.spread)} of its median (highest − lowest round)${
    others.length > 0 ? `; ${others.join(', ')}` : ''
  }. A ratio moves with both of its gateways: read the median and the range, never one round.`;
}

function shortName(name: TargetName): string {
  if (name === 'pool') return 'the pool proxy';
  if (name === 'bare') return 'the bare proxy';
  if (name === 'floor') return 'the durable-billing floor';
  if (name === 'portkey') return 'Portkey';
  return name;
}

/**
 * What the run set Switchyard beside, for the page's first sentence: the floors its rounds
 * measured (a run without the pool proxy or the durable-billing floor does not claim them).
 */
export function comparedWith(run: BenchRun): string {
  const rounds = run.saturationRounds ?? {};
  const measured = (name: TargetName) => (rounds[name]?.length ?? 0) > 0;
  const proxies = measured('pool')
    ? 'two undici pass-through proxies (the floors any Node gateway starts from: the bare proxy streams bodies, the pool proxy buffers them)'
    : 'a bare undici pass-through proxy (the floor for any Node gateway)';
  const ledger = measured('floor') ? ', a floor that also bills every call in SQLite,' : '';
  return `${proxies}${ledger} and Portkey's open-source gateway`;
}

/** The floors the rounds saturated beside the gateways, for the Method section: "the pool proxy and the durable-billing floor". */
export function floorsInRounds(run: BenchRun): string {
  const rounds = run.saturationRounds ?? {};
  const names = (['pool', 'floor'] as const).filter((name) => (rounds[name]?.length ?? 0) > 0);
  return names.map(shortName).join(' and ');
}

/** The section: every floor described, and measured when the rounds ran it. */
export function floorsSection(run: BenchRun): string {
  const rounds = run.saturationRounds ?? {};
  const described = FLOORS.map(
    (floor) =>
      `- **${TARGET_LABELS[floor.name]}** (\`${floor.file}\`): ${floor.does}. Leaves out: ${floor.leavesOut}.`,
  ).join('\n');
  const rateOf = (name: TargetName) => {
    const swing = rateSwing(rounds[name] ?? []);
    return swing ? describeSwing(swing) : 'not in this run';
  };
  const rows = [
    [TARGET_LABELS.switchyard, rateOf('switchyard'), '—'],
    ...FLOORS.map((floor) => {
      const ratio = throughputRatio(rounds, 'switchyard', floor.name);
      return [TARGET_LABELS[floor.name], rateOf(floor.name), ratio ? ratioRange(ratio) : '—'];
    }),
  ];
  const measured = Object.keys(rounds).length > 0;
  const swing = measured ? swingSentence(rounds) : '';
  const poolMissing =
    measured && !rounds.pool?.length
      ? '\n\nThe pool proxy is not in this run: `BENCH_POOL=1` (the default) adds it to the rounds.'
      : '';
  const numbers = measured
    ? `Measured in the alternated rounds below (non-stream chat at saturation, ${run.config.saturationConnections} connections): each
gateway's rate is the median of the rounds, with the lowest and highest round and their spread
(highest − lowest, over the median); Switchyard's throughput over a floor's is taken within each
round, then the median with the lowest and highest round.

${table(['gateway', 'rate: median (lowest–highest round, spread)', "Switchyard's throughput over it: median (lowest–highest round)"], rows)}${swing ? `\n\n${swing}` : ''}${poolMissing}`
    : 'This run had no alternated rounds (`BENCH_SATURATION_ROUNDS=0`): the floors were not measured.';
  return `## Switchyard against the floors

Two pass-through proxies mark what a Node gateway pays before any work of its own: the pool
proxy, the least a Node relay does for a non-stream call, and the bare proxy, which streams and
cancels as a gateway must. The durable-billing floor adds the least a gateway that bills every
call must write. Switchyard does all of its normal work on every call: it authenticates the
token, prices and reserves quota, relays through a channel, settles and writes a consume log row.

${described}

${numbers}`;
}
