import { describe, expect, it } from 'vitest';
import type { BenchRun } from './bench-results.ts';
import { describeRatio, roundRatios, roundsSection } from './report-rounds.ts';
import {
  combineWindows,
  cpuPerRequest,
  median,
  roundOrder,
  roundTargets,
  runSaturationRounds,
  type SaturationRound,
  type SaturationRounds,
  throughputRatio,
  windowOrder,
} from './saturation-rounds.ts';

const entry = (round: number, rps: number, cpuMs = 0, ok = rps * 8, failed = 0): SaturationRound => ({
  round,
  rps,
  cpuMs,
  ok,
  failed,
});

describe('saturation rounds', () => {
  it('takes the median of odd and even counts, NaN when empty', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('pairs ratios within a round before taking their median', () => {
    // Round 2 ran on a slower machine for both: its ratio is still 0.5.
    const rounds: SaturationRounds = {
      bare: [entry(1, 1000), entry(2, 500), entry(3, 1000)],
      switchyard: [entry(1, 400), entry(2, 250), entry(3, 600)],
    };
    const ratio = throughputRatio(rounds, 'switchyard', 'bare')!;
    expect(ratio.perRound).toEqual([0.4, 0.5, 0.6]);
    expect(ratio.median).toBe(0.5);
    // A pooled median of rates (400 / 1000) would have said 0.4.
  });

  it('skips rounds the other target did not run or answered nothing in', () => {
    const rounds: SaturationRounds = {
      portkey: [entry(1, 100), entry(2, 0)],
      switchyard: [entry(1, 520), entry(2, 500), entry(3, 510)],
    };
    expect(throughputRatio(rounds, 'switchyard', 'portkey')).toEqual({ perRound: [5.2], median: 5.2 });
    expect(throughputRatio(rounds, 'switchyard', 'bare')).toBeUndefined();
  });

  it('gives CPU per successful request per round and its median', () => {
    const cpu = cpuPerRequest([entry(1, 0, 300, 1000), entry(2, 0, 330, 1000), entry(3, 0, 10, 0)]);
    expect(cpu.perRound[0]).toBeCloseTo(300);
    expect(cpu.perRound[1]).toBeCloseTo(330);
    expect(cpu.perRound[2]).toBeNaN();
    expect(cpu.median).toBeCloseTo(315);
  });

  it('rotates the order so no gateway is always first', () => {
    const names = ['bare', 'switchyard', 'portkey'];
    expect(roundOrder(names, 1)).toEqual(['bare', 'switchyard', 'portkey']);
    expect(roundOrder(names, 2)).toEqual(['switchyard', 'portkey', 'bare']);
    expect(roundOrder(names, 4)).toEqual(['bare', 'switchyard', 'portkey']);
    expect(roundOrder([], 3)).toEqual([]);
  });
});

describe('the gateways of the rounds', () => {
  it('adds the durable-billing floor when asked and its two ratios can be taken', () => {
    const all = ['mock', 'bare', 'switchyard', 'portkey'] as const;
    expect(roundTargets({ targets: all, floorInRounds: true })).toEqual([
      'bare',
      'switchyard',
      'portkey',
      'floor',
    ]);
    expect(roundTargets({ targets: all, floorInRounds: false })).toEqual(['bare', 'switchyard', 'portkey']);
    expect(roundTargets({ targets: ['mock', 'switchyard', 'portkey'], floorInRounds: true })).toEqual([
      'switchyard',
      'portkey',
    ]);
  });

  it('adds the pool proxy when asked and Switchyard runs, before the durable-billing floor', () => {
    const all = ['mock', 'bare', 'switchyard', 'portkey'] as const;
    expect(roundTargets({ targets: all, poolInRounds: true, floorInRounds: true })).toEqual([
      'bare',
      'switchyard',
      'portkey',
      'pool',
      'floor',
    ]);
    expect(
      roundTargets({ targets: ['mock', 'switchyard'], poolInRounds: true, floorInRounds: true }),
    ).toEqual(['switchyard', 'pool']);
    expect(
      roundTargets({ targets: ['mock', 'bare', 'portkey'], poolInRounds: true, floorInRounds: true }),
    ).toEqual(['bare', 'portkey']);
  });
});

describe('the report of the rounds', () => {
  const run = {
    config: { roundWarmupSeconds: 10 },
    saturationRounds: {
      bare: [entry(1, 6000, 8000, 48000), entry(2, 5000, 8000, 40000)],
      switchyard: [entry(1, 2700, 8000, 21600), entry(2, 2500, 8000, 20000, 3)],
      portkey: [entry(1, 600, 8000, 4800), entry(2, 480, 8000, 3840)],
    },
  } as unknown as BenchRun;

  it('states the median and every round, as a percentage or a multiple', () => {
    const ratios = roundRatios(run);
    expect(describeRatio(ratios.bare!, 'percent')).toBe('48% (rounds: 45%, 50%)');
    expect(describeRatio(ratios.portkey!, 'times')).toBe('4.85× (rounds: 4.50×, 5.21×)');
  });

  it('renders one row per gateway with each round and the median CPU per request', () => {
    const section = roundsSection(run);
    expect(section).toContain('## Saturation, alternated rounds');
    expect(section).toMatch(
      /\| Switchyard\s+\|\s+2,700, 370 \|\s+2,500, 400, 3 failed \|\s+2,600 \(2,500–2,700, spread 8%\) \|\s+385 \|/,
    );
    expect(section).toMatch(
      /\| bare proxy \(undici Agent, streamed\)\s+\|\s+6,000, 167 \|\s+5,000, 200 \|\s+5,500 \(5,000–6,000, spread 18%\) \|\s+183 \|/,
    );
    expect(section).toContain("Switchyard's throughput against the bare proxy: 48% (rounds: 45%, 50%).");
    expect(section).toContain('Against Portkey: 4.85× (rounds: 4.50×, 5.21×).');
    expect(section).toContain('warms it up at saturation for 10 s');
  });

  it('names Switchyard against the pool proxy first when the rounds ran it', () => {
    const withPool = {
      ...run,
      saturationRounds: { ...run.saturationRounds, pool: [entry(1, 9000), entry(2, 5000)] },
    } as BenchRun;
    expect(describeRatio(roundRatios(withPool).pool!, 'percent')).toBe('40% (rounds: 30%, 50%)');
    const section = roundsSection(withPool);
    expect(section).toContain(
      "Switchyard's throughput against the pool proxy: 40% (rounds: 30%, 50%). Against the bare proxy: 48%",
    );
    expect(section).toMatch(/\| pool proxy \(undici Pool, buffered\)\s+\|\s+9,000, 0 \|/);
  });

  it('gives the floor against the bare proxy and Switchyard against the floor when the rounds ran it', () => {
    expect(roundsSection(run)).not.toContain('durable-billing floor');
    const withFloor = {
      ...run,
      saturationRounds: { ...run.saturationRounds, floor: [entry(1, 4800, 8000), entry(2, 4000, 8000)] },
    } as BenchRun;
    const ratios = roundRatios(withFloor);
    expect(describeRatio(ratios.floorOfBare!, 'percent')).toBe('80% (rounds: 80%, 80%)');
    expect(describeRatio(ratios.ofFloor!, 'percent')).toBe('59% (rounds: 56%, 63%)');
    const section = roundsSection(withFloor);
    expect(section).toMatch(/\| durable-billing floor\s+\|\s+4,800, 208 \|/);
    expect(section).toContain(
      'against the bare proxy: 80% (rounds: 80%, 80%); Switchyard against that floor: 59%',
    );
  });

  it('describes windows taken in turn when the rounds had them', () => {
    const windowed = {
      ...run,
      config: { roundWarmupSeconds: 10, roundWindows: 4, roundRewarmSeconds: 1, durationSeconds: 8 },
    } as BenchRun;
    const section = roundsSection(windowed);
    expect(section).toContain('saturates them in turn in 4 windows of 2 s each');
    expect(section).toContain('each after 1 s at saturation that is not measured');
    expect(section).toContain('its CPU is read until 0.5 s after each window');
    expect(roundsSection(run)).toContain('saturates it for one phase, one gateway\nafter another');
  });

  it('describes the warm-up of results written before it had its own setting', () => {
    const older = { ...run, config: {} } as BenchRun;
    expect(roundsSection(older)).toContain('warms it up as above and saturates it');
  });

  it('is left out of runs without rounds', () => {
    expect(roundsSection({} as BenchRun)).toBe('');
    expect(roundRatios({} as BenchRun)).toEqual({});
  });
});

describe('runSaturationRounds', () => {
  it('starts and warms every gateway of a round, then saturates them in turn, all alive', async () => {
    const events: string[] = [];
    const rounds = await runSaturationRounds({
      rounds: 2,
      names: ['bare', 'switchyard'],
      windows: 2,
      start: async (name) => {
        events.push(`start ${name}`);
        return { name, stop: async () => void events.push(`stop ${name}`) };
      },
      warm: async (target) => void events.push(`warm ${target.name}`),
      saturate: async (target) => {
        events.push(`saturate ${target.name}`);
        return { rps: target.name === 'bare' ? 1000 : 450, cpuMs: 80, ok: 8000, failed: 0 };
      },
      log: () => {},
    });
    expect(events).toEqual([
      'start bare',
      'start switchyard',
      'warm bare',
      'warm switchyard',
      'saturate bare',
      'saturate switchyard',
      'saturate switchyard',
      'saturate bare',
      'stop bare',
      'stop switchyard',
      'start switchyard',
      'start bare',
      'warm switchyard',
      'warm bare',
      'saturate switchyard',
      'saturate bare',
      'saturate bare',
      'saturate switchyard',
      'stop switchyard',
      'stop bare',
    ]);
    expect(rounds.switchyard?.map((entry) => entry.round)).toEqual([1, 2]);
    // Two windows added up: requests and CPU summed, the rate their mean.
    expect(rounds.switchyard?.[0]).toEqual({ round: 1, rps: 450, cpuMs: 160, ok: 16000, failed: 0 });
    expect(throughputRatio(rounds, 'switchyard', 'bare')?.median).toBeCloseTo(0.45);
  });

  it('adds up windows: rates averaged, requests, failures and CPU summed', () => {
    expect(
      combineWindows([
        { rps: 100, cpuMs: 10, ok: 200, failed: 1 },
        { rps: 300, cpuMs: 30, ok: 600, failed: 0 },
      ]),
    ).toEqual({ rps: 200, cpuMs: 40, ok: 800, failed: 1 });
    expect(combineWindows([])).toEqual({ rps: 0, cpuMs: 0, ok: 0, failed: 0 });
  });

  it('takes windows in the round order, then reversed', () => {
    expect(windowOrder(['a', 'b', 'c'], 1)).toEqual(['a', 'b', 'c']);
    expect(windowOrder(['a', 'b', 'c'], 2)).toEqual(['c', 'b', 'a']);
    expect(windowOrder(['a', 'b', 'c'], 3)).toEqual(['a', 'b', 'c']);
  });

  it('stops every started gateway when a phase fails, and reports the failure', async () => {
    const stopped: string[] = [];
    await expect(
      runSaturationRounds({
        rounds: 1,
        names: ['bare', 'portkey'],
        start: async (name) => ({ stop: async () => void stopped.push(name) }),
        warm: async () => {},
        saturate: async () => {
          throw new Error('gateway died');
        },
        log: () => {},
      }),
    ).rejects.toThrow('gateway died');
    expect(stopped).toEqual(['bare', 'portkey']);
  });

  it('stops the gateways already started when another fails to start', async () => {
    const stopped: string[] = [];
    await expect(
      runSaturationRounds({
        rounds: 1,
        names: ['bare', 'portkey'],
        start: async (name) => {
          if (name === 'portkey') throw new Error('no portkey');
          return { stop: async () => void stopped.push(name) };
        },
        warm: async () => {},
        saturate: async () => ({ rps: 1, cpuMs: 1, ok: 1, failed: 0 }),
        log: () => {},
      }),
    ).rejects.toThrow('no portkey');
    expect(stopped).toEqual(['bare']);
  });
});
