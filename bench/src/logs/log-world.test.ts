import { describe, expect, it } from 'vitest';
import { emptyTotals, generateLogBatches, LogType, requestIdPrefix, typeOf } from './log-rows.ts';
import {
  buildWorld,
  cumulativeOf,
  FULL_WORLD,
  modelNames,
  pick,
  seededRandom,
  zipfCumulative,
} from './log-world.ts';

describe('log world', () => {
  it('draws indexes in proportion to their weights', () => {
    const table = cumulativeOf([1, 3]);
    expect(pick(table, 0)).toBe(0);
    expect(pick(table, 0.24)).toBe(0);
    expect(pick(table, 0.26)).toBe(1);
    expect(pick(table, 0.999)).toBe(1);
  });

  it('gives a Zipf table a heavy head', () => {
    const table = zipfCumulative(1000, 1.05);
    const random = seededRandom(1);
    const counts = new Array<number>(1000).fill(0);
    for (let i = 0; i < 100_000; i++) counts[pick(table, random())]! += 1;
    expect(counts[0]! / 100_000).toBeGreaterThan(0.1);
    expect(counts[0]!).toBeGreaterThan(counts[9]! * 5);
    expect(counts.filter((count) => count === 0).length).toBeLessThan(500);
  });

  it('builds the full world: every token belongs to one user, every model has channels', () => {
    const world = buildWorld(FULL_WORLD);
    expect(world.users).toHaveLength(1000);
    expect(world.tokens).toHaveLength(5000);
    expect(world.models).toHaveLength(200);
    expect(new Set(world.models.map((model) => model.name)).size).toBe(200);
    expect(world.channels).toHaveLength(50);
    expect(world.users.every((user) => user.tokens.length >= 1)).toBe(true);
    expect(world.users.reduce((sum, user) => sum + user.tokens.length, 0)).toBe(5000);
    for (const token of world.tokens) {
      expect(world.users[token.userIndex]!.tokens).toContain(token.id - 1);
      expect(token.models.length).toBeGreaterThanOrEqual(2);
      expect(token.models.length).toBeLessThanOrEqual(6);
    }
    expect(world.models.every((model) => model.channels.length >= 1 && model.channels.length <= 3)).toBe(
      true,
    );
    expect(new Set(world.users.map((user) => user.group))).toEqual(new Set(['default', 'vip', 'svip']));
    expect(new Set(world.tokens.map((token) => token.key)).size).toBe(5000);
  });

  it('is the same world for the same seed', () => {
    expect(buildWorld(FULL_WORLD).tokens[1234]).toEqual(buildWorld(FULL_WORLD).tokens[1234]);
    expect(modelNames(3)).toEqual(['gpt-4o', 'gpt-4o-mini', 'claude-3-5-sonnet']);
  });
});

describe('log rows', () => {
  it('writes request ids that begin with the row time in UTC', () => {
    expect(requestIdPrefix(1_600_000_000)).toBe('20200913122640');
    expect(requestIdPrefix(1_600_000_000 + 86_399 - 40)).toBe('20200914122559');
  });

  it('makes most rows consume rows and a few error rows', () => {
    const random = seededRandom(3);
    const counts = new Map<number, number>();
    for (let i = 0; i < 100_000; i++) {
      const type = typeOf(random());
      counts.set(type, (counts.get(type) ?? 0) + 1);
    }
    expect(counts.get(LogType.Consume)! / 100_000).toBeCloseTo(0.965, 2);
    expect(counts.get(LogType.Error)! / 100_000).toBeCloseTo(0.03, 2);
  });

  it('generates rows in time order whose totals match the dashboard buckets and the user totals', () => {
    const world = buildWorld(FULL_WORLD);
    const totals = emptyTotals();
    const buckets: Array<{ userId: number; createdAt: number; count: number; quota: number }> = [];
    const batches = [
      ...generateLogBatches(
        world,
        { rows: 20_000, from: 1_700_000_000, to: 1_700_000_000 + 7 * 86400 },
        3000,
        totals,
        (hour) => buckets.push(...hour),
      ),
    ];
    expect(batches.reduce((sum, batch) => sum + batch.length, 0)).toBe(20_000);
    const times = batches.flatMap((batch) => batch.created_at);
    expect(times.every((time, i) => i === 0 || time >= times[i - 1]!)).toBe(true);
    let consumeQuota = 0;
    let consumeRows = 0;
    for (const batch of batches) {
      for (let i = 0; i < batch.length; i++) {
        if (batch.type[i] !== LogType.Consume) continue;
        consumeRows += 1;
        consumeQuota += batch.quota[i]!;
        expect(batch.other[i]).toContain(`"request_id":"${requestIdPrefix(batch.created_at[i]!)}`);
      }
    }
    expect(buckets.reduce((sum, bucket) => sum + bucket.count, 0)).toBe(consumeRows);
    expect(buckets.reduce((sum, bucket) => sum + bucket.quota, 0)).toBe(consumeQuota);
    expect([...totals.userQuota.values()].reduce((a, b) => a + b, 0)).toBe(consumeQuota);
    expect(buckets.every((bucket) => bucket.createdAt % 3600 === 0)).toBe(true);
    // The heaviest user has far more rows than the median one.
    const heavy = totals.userRequests.get(world.users[0]!.id) ?? 0;
    const median = totals.userRequests.get(world.users[500]!.id) ?? 0;
    expect(heavy).toBeGreaterThan(median * 20);
  });
});
