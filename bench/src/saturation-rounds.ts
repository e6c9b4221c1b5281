/**
 * Alternated saturation rounds: the throughput ratios (Switchyard against the two pass-through
 * floors, the durable-billing floor and Portkey) from measurements taken seconds apart. The per-target phases run each
 * gateway for minutes before the next starts, and this machine's speed drifts in that time (by up
 * to half within a minute); here every round starts each gateway afresh,
 * keeps them all alive and saturates them in turn in short windows, and each ratio is taken
 * within a round before the median over rounds is reported.
 */
import type { TargetName } from './bench-config.ts';

/**
 * How long after its window a gateway's CPU is still read: work it left for later (batched
 * writes, a checkpoint) is charged to it, not to the next gateway's window.
 */
export const AFTER_WINDOW_MS = 500;

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
 * The gateways the rounds saturate: every target but the mock; the buffered floor (pool-proxy.mjs)
 * when asked for and Switchyard runs (its ratio needs it); and the durable-billing floor when asked
 * for and both the bare proxy and Switchyard run (its two ratios need them).
 */
export function roundTargets(config: {
  targets: readonly TargetName[];
  poolInRounds?: boolean;
  floorInRounds: boolean;
}): TargetName[] {
  const names = config.targets.filter((name) => name !== 'mock' && name !== 'floor' && name !== 'pool');
  const pool = (config.poolInRounds ?? false) && names.includes('switchyard');
  const floor = config.floorInRounds && names.includes('bare') && names.includes('switchyard');
  return [...names, ...(pool ? (['pool'] as const) : []), ...(floor ? (['floor'] as const) : [])];
}

/** The order gateways run in a round: rotated by one each round, so none is always first or last. */
export function roundOrder<T>(names: readonly T[], round: number): T[] {
  if (names.length === 0) return [];
  const shift = (round - 1) % names.length;
  return [...names.slice(shift), ...names.slice(0, shift)];
}

/**
 * Adds up one gateway's windows of a round: requests, failures and CPU summed, the rate as the
 * windows' mean (they last equally long).
 */
export function combineWindows(
  windows: ReadonlyArray<Omit<SaturationRound, 'round'>>,
): Omit<SaturationRound, 'round'> {
  let rps = 0;
  let cpuMs = 0;
  let ok = 0;
  let failed = 0;
  for (const window of windows) {
    rps += window.rps;
    cpuMs += window.cpuMs;
    ok += window.ok;
    failed += window.failed;
  }
  return { rps: windows.length > 0 ? rps / windows.length : 0, cpuMs, ok, failed };
}

/**
 * The order of a round's measured windows: the round's order, then reversed, and so on (ABBA), so
 * a drift of the machine's speed within the round weighs on every gateway alike.
 */
export function windowOrder<T>(roundNames: readonly T[], window: number): T[] {
  return window % 2 === 1 ? [...roundNames] : [...roundNames].reverse();
}

/**
 * Runs the rounds. In each, every gateway is started and warmed up (in an order rotated from round
 * to round), then saturated in `windows` short windows taken in turn, all gateways alive
 * throughout: this machine's speed swings by up to half within a minute, and a slow stretch now
 * falls on neighbouring windows of every gateway instead of on whichever ran then. All are stopped
 * at the end of the round, also when a phase fails (which ends the run).
 */
export async function runSaturationRounds<T extends Stoppable>(options: {
  rounds: number;
  names: readonly TargetName[];
  /** Measured windows per gateway and round (1: each saturated once). */
  windows?: number;
  start: (name: TargetName) => Promise<T>;
  /** Probes and warms up a started gateway. */
  warm: (target: T) => Promise<void>;
  /** One measured window of a warmed-up gateway. */
  saturate: (target: T) => Promise<Omit<SaturationRound, 'round'>>;
  log: (message: string) => void;
}): Promise<SaturationRounds> {
  const results: SaturationRounds = {};
  const windows = Math.max(1, Math.floor(options.windows ?? 1));
  for (let round = 1; round <= options.rounds; round++) {
    const order = roundOrder(options.names, round);
    const started: Array<[TargetName, T]> = [];
    try {
      for (const name of order) started.push([name, await options.start(name)]);
      for (const [, target] of started) await options.warm(target);
      const measured = new Map<TargetName, Array<Omit<SaturationRound, 'round'>>>();
      for (let window = 1; window <= windows; window++) {
        for (const [name, target] of windowOrder(started, window)) {
          const entries = measured.get(name) ?? [];
          entries.push(await options.saturate(target));
          measured.set(name, entries);
        }
      }
      for (const [name] of started) {
        const combined = combineWindows(measured.get(name) ?? []);
        const entries = results[name] ?? [];
        entries.push({ round, ...combined });
        results[name] = entries;
        const cpu = (combined.cpuMs * 1000) / Math.max(1, combined.ok);
        options.log(`  round ${round}, ${name}: ${combined.rps.toFixed(0)}/s, ${cpu.toFixed(0)} µs/req`);
      }
    } finally {
      for (const [, target] of started) await target.stop();
    }
  }
  return results;
}
