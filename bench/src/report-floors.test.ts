import { describe, expect, it } from 'vitest';
import type { BenchRun } from './bench-results.ts';
import {
  comparedWith,
  FLOORS,
  floorsInRounds,
  floorsSection,
  ratioRange,
  swingOf,
  swingSentence,
} from './report-floors.ts';
import type { SaturationRound, SaturationRounds } from './saturation-rounds.ts';

const entry = (round: number, rps: number): SaturationRound => ({
  round,
  rps,
  cpuMs: 8000,
  ok: rps * 8,
  failed: 0,
});
const series = (...rates: number[]) => rates.map((rps, index) => entry(index + 1, rps));

/** A switchyard that swings by a third against two steady floors. */
const rounds: SaturationRounds = {
  pool: series(12_000, 12_400, 11_800),
  bare: series(8_000, 8_200, 7_900),
  switchyard: series(5_000, 6_600, 5_400),
};
const runWith = (saturationRounds?: SaturationRounds) =>
  ({ config: { saturationConnections: 64 }, targets: [], saturationRounds }) as unknown as BenchRun;

describe('the swing of a gateway over the rounds', () => {
  it('gives the lowest, highest and median round and their spread over the median', () => {
    expect(swingOf([5_000, 6_600, 5_400])).toEqual({
      min: 5_000,
      max: 6_600,
      median: 5_400,
      spread: 1_600 / 5_400,
    });
  });

  it('has none for no rounds or a gateway that answered nothing', () => {
    expect(swingOf([])).toBeUndefined();
    expect(swingOf([0, 0])).toBeUndefined();
  });

  it('gives a ratio as its median with its lowest and highest round', () => {
    expect(ratioRange({ perRound: [0.45, 0.53, 0.48], median: 0.48 })).toBe('48% (45–53%)');
  });

  it('compares Switchyard with the others, the steadiest first', () => {
    expect(swingSentence(rounds)).toBe(
      "From round to round Switchyard's rate spread 30% of its median (highest − lowest round); the bare proxy 4%, the pool proxy 5%. A ratio moves with both of its gateways: read the median and the range, never one round.",
    );
  });

  it('says nothing without Switchyard or with a single round', () => {
    expect(swingSentence({ pool: rounds.pool })).toBe('');
    expect(swingSentence({ switchyard: series(5_000) })).toBe('');
  });
});

describe('the floors section', () => {
  it('says what each floor does and leaves out, with its file', () => {
    const section = floorsSection(runWith(rounds));
    expect(section).toContain('## Switchyard against the floors');
    for (const floor of FLOORS) {
      expect(section).toContain(`\`${floor.file}\``);
      expect(section).toContain(floor.does);
      expect(section).toContain(floor.leavesOut);
    }
    expect(FLOORS.find((floor) => floor.name === 'pool')?.does).toContain('one undici `Pool`');
    expect(FLOORS.find((floor) => floor.name === 'bare')?.does).toContain('`AbortController` per call');
  });

  it("gives Switchyard's ratio to each floor and every rate's range", () => {
    const section = floorsSection(runWith(rounds));
    const row = (label: string) => section.split('\n').find((line) => line.startsWith(`| ${label}`))!;
    expect(row('pool proxy')).toMatch(
      /\| +12,000 req\/s \(11,800–12,400, spread 5%\) \| +46% \(42–53%\) \|$/,
    );
    expect(row('bare proxy')).toMatch(/\| +8,000 req\/s \(7,900–8,200, spread 4%\) \| +68% \(63–80%\) \|$/);
    expect(row('durable-billing floor')).toMatch(/\| +not in this run \| +— \|$/);
    expect(row('Switchyard')).toMatch(/\| +5,400 req\/s \(5,000–6,600, spread 30%\) \| +— \|$/);
    expect(section).toContain("From round to round Switchyard's rate spread 30%");
  });

  it('says when the rounds did not run the pool proxy', () => {
    const { pool: _pool, ...withoutPool } = rounds;
    expect(floorsSection(runWith(withoutPool))).toContain('The pool proxy is not in this run');
    expect(floorsSection(runWith(rounds))).not.toContain('The pool proxy is not in this run');
  });

  it('still describes the floors when the run had no rounds', () => {
    const section = floorsSection(runWith(undefined));
    expect(section).toContain('This run had no alternated rounds');
    expect(section).toContain('bench/src/pool-proxy.mjs');
    expect(section).not.toContain('From round to round');
  });
});

describe('what the page says Switchyard was set beside', () => {
  it('names both pass-through floors, and the billing floor, only when the rounds measured them', () => {
    expect(comparedWith(runWith(rounds))).toBe(
      "two undici pass-through proxies (the floors any Node gateway starts from: the bare proxy streams bodies, the pool proxy buffers them) and Portkey's open-source gateway",
    );
    expect(comparedWith(runWith({ bare: rounds.bare, floor: rounds.bare }))).toBe(
      "a bare undici pass-through proxy (the floor for any Node gateway), a floor that also bills every call in SQLite, and Portkey's open-source gateway",
    );
    expect(floorsInRounds(runWith({ ...rounds, floor: rounds.bare }))).toBe(
      'the pool proxy and the durable-billing floor',
    );
    expect(floorsInRounds(runWith(undefined))).toBe('');
  });
});
