import { describe, expect, it } from 'vitest';
import { switchyardFlagsNote, targetsTable } from './bench-report.ts';
import type { BenchRun } from './bench-results.ts';

const round = (index: number, rps: number) => ({ round: index, rps, cpuMs: 8000, ok: rps * 8, failed: 0 });

describe('the targets table', () => {
  const rounds = {
    bare: [round(1, 10_000), round(2, 12_000)],
    switchyard: [round(1, 5_000), round(2, 5_400)],
  };
  const runWith = (saturationRounds: object) =>
    ({ config: {}, targets: [], saturationRounds }) as unknown as BenchRun;
  const throughputRow = (run: BenchRun) =>
    targetsTable(run)
      .split('\n')
      .find((line) => line.includes('Throughput ≥ 80% of the bare proxy'))!;

  it('gives the durable-billing floor beside the 80% target when the rounds ran it', () => {
    const row = throughputRow(runWith({ ...rounds, floor: [round(1, 7_800), round(2, 9_600)] }));
    expect(row).toContain('48% (rounds: 50%, 45%); the durable-billing floor 79%');
    expect(row).toMatch(/\| +missed \|$/);
  });

  it('leaves the floor out of runs without it', () => {
    expect(throughputRow(runWith(rounds))).not.toContain('floor');
  });
});

describe("the report's note of Switchyard's Node flags", () => {
  it("names npm start's flags, says so when there are none, and stays silent for older results", () => {
    expect(switchyardFlagsNote(['--max-semi-space-size=32'])).toBe(
      ', started as `npm start` does: `node --max-semi-space-size=32`',
    );
    expect(switchyardFlagsNote([])).toBe(', started as `npm start` does');
    expect(switchyardFlagsNote(undefined)).toBe('');
  });
});
