import { describe, expect, it } from 'vitest';
import { loadBenchConfig } from './bench-config.ts';
import { renderReport, switchyardFlagsNote, targetsTable } from './bench-report.ts';
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

  it('gives Switchyard against the pool proxy as a reported row without a target', () => {
    const table = targetsTable(runWith({ ...rounds, pool: [round(1, 12_500), round(2, 13_500)] }));
    const row = table.split('\n').find((line) => line.includes('against the pool proxy'))!;
    expect(row).toContain('40% (rounds: 40%, 40%)');
    expect(row).toMatch(/\| +— \|$/);
    expect(targetsTable(runWith(rounds))).not.toContain('pool proxy');
  });

  it('states the targets as what they are, without naming where they came from', () => {
    expect(targetsTable(runWith(rounds))).toMatch(/^\| target +\| +this run \| +verdict \|/);
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

describe('the rendered page', () => {
  const run = {
    config: loadBenchConfig({}),
    machine: { date: '2026-01-01T00:00:00Z', versions: {} },
    targets: [],
    notes: [],
    busyBeforeStartPercent: 0,
    elapsedSeconds: 1,
    saturationRounds: {
      bare: [round(1, 8_000), round(2, 8_200)],
      pool: [round(1, 12_000), round(2, 12_400)],
      switchyard: [round(1, 5_000), round(2, 6_600)],
    },
  } as unknown as BenchRun;
  // The page includes bench/analysis.md, which keeps to the same rules.
  const page = renderReport(run);

  it('has the targets, then Switchyard against both floors', () => {
    expect(page).toContain('## Targets\n');
    expect(page.indexOf('## Switchyard against the floors')).toBeGreaterThan(page.indexOf('## Targets'));
    expect(page).toContain('bench/src/pool-proxy.mjs');
    expect(page).toContain('bench/src/bare-proxy.mjs');
  });

  it('names no issue numbers', () => {
    expect(page).not.toMatch(/issues? \d/i);
  });

  it('tells how to reproduce with plain tools: pinned gateways and autocannon', () => {
    expect(page).toContain('### With plain tools');
    expect(page).toContain('taskset -c 1 node bench/src/pool-proxy.mjs');
    expect(page).toContain('taskset -c 0 npx autocannon -c 50 -d "$2"');
  });
});
