/**
 * Alternated saturation rounds: the throughput ratios of issue 9 (Switchyard against the bare
 * proxy and Portkey) from measurements taken seconds apart. The per-target phases run each
 * gateway for minutes before the next starts, and this machine's speed drifts by ±10% in that
 * time; here every round starts each gateway afresh and saturates them one after another, and
 * each ratio is taken within a round before the median over rounds is reported.
 */
import type { TargetName } from './bench-config.ts';

/** What the rounds need of a started gateway. */
interface Stoppable {
  stop(): Promise<void>;
}

/** One gateway's saturation in one round. */
export interface SaturationRound {
  round: number;
  rps: number;
  /** CPU time of the gateway's process over the measured window, milliseconds. */
  cpuMs: number;
  /** Requests answered successfully in the window (the saturation table divides CPU by these too). */
  ok: number;
  failed: number;
}

export type SaturationRounds = Partial<Record<TargetName, SaturationRound[]>>;

/** Median of a non-empty list (mean of the middle two for an even count); NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export interface RoundRatio {
  /** The ratio in each round both targets completed, in round order. */
  perRound: number[];
  median: number;
}

/**
 * `numerator`'s throughput over `denominator`'s, round by round (the rounds both targets ran, the
 * denominator with a non-zero rate), and the median of those ratios. Undefined when there are none.
 */
export function throughputRatio(
  rounds: SaturationRounds,
  numerator: TargetName,
  denominator: TargetName,
): RoundRatio | undefined {
  const top = rounds[numerator] ?? [];
  const bottom = new Map((rounds[denominator] ?? []).map((entry) => [entry.round, entry]));
  const perRound: number[] = [];
  for (const entry of top) {
    const other = bottom.get(entry.round);
    if (other && other.rps > 0) perRound.push(entry.rps / other.rps);
  }
  return perRound.length === 0 ? undefined : { perRound, median: median(perRound) };
}

/** A target's CPU per request in each round (µs) and their median. */
export function cpuPerRequest(entries: readonly SaturationRound[]): { perRound: number[]; median: number } {
  const perRound = entries.map((entry) => (entry.ok > 0 ? (entry.cpuMs * 1000) / entry.ok : Number.NaN));
  return { perRound, median: median(perRound.filter((value) => !Number.isNaN(value))) };
}

/**
 * The gateways the rounds saturate: every target but the mock, and the durable-billing floor when
 * asked for and both the bare proxy and Switchyard run (its two ratios need them).
 */
export function roundTargets(config: {
  targets: readonly TargetName[];
  floorInRounds: boolean;
}): TargetName[] {
  const names = config.targets.filter((name) => name !== 'mock' && name !== 'floor');
  const floor = config.floorInRounds && names.includes('bare') && names.includes('switchyard');
  return floor ? [...names, 'floor'] : names;
}

/** The order gateways run in a round: rotated by one each round, so none is always first or last. */
export function roundOrder<T>(names: readonly T[], round: number): T[] {
  if (names.length === 0) return [];
  const shift = (round - 1) % names.length;
  return [...names.slice(shift), ...names.slice(0, shift)];
}

/**
 * Runs the rounds: in each, every gateway is started, saturated once and stopped (also when its
 * phase fails, which ends the run), in an order rotated from round to round.
 */
export async function runSaturationRounds<T extends Stoppable>(options: {
  rounds: number;
  names: readonly TargetName[];
  start: (name: TargetName) => Promise<T>;
  saturate: (target: T) => Promise<Omit<SaturationRound, 'round'>>;
  log: (message: string) => void;
}): Promise<SaturationRounds> {
  const results: SaturationRounds = {};
  for (let round = 1; round <= options.rounds; round++) {
    for (const name of roundOrder(options.names, round)) {
      const target = await options.start(name);
      try {
        const measured = await options.saturate(target);
        const entries = results[name] ?? [];
        entries.push({ round, ...measured });
        results[name] = entries;
        const cpu = (measured.cpuMs * 1000) / Math.max(1, measured.ok);
        options.log(`  round ${round}, ${name}: ${measured.rps.toFixed(0)}/s, ${cpu.toFixed(0)} µs/req`);
      } finally {
        await target.stop();
      }
    }
  }
  return results;
}
