import { describe, expect, it } from 'vitest';
import type { TokenRow } from '../db/repositories/token-repository.ts';
import type { UserRow } from '../db/repositories/user-repository.ts';
import { TokenCache } from './token-cache.ts';

const tokenRow = { id: 7, key: 'abc', user_id: 3, deleted_at: null } as unknown as TokenRow;
const userRow = {
  id: 3,
  username: 'ann',
  role: 1,
  status: 1,
  group: 'default',
  deleted_at: null,
  setting: null,
} as unknown as UserRow;

function cacheWithLoads() {
  const loads = { tokens: 0, users: 0 };
  const lookups: string[] = [];
  const cache = new TokenCache(
    async (key) => {
      loads.tokens++;
      return key === 'abc' ? tokenRow : undefined;
    },
    async (id) => {
      loads.users++;
      return id === 3 ? userRow : undefined;
    },
    60_000,
  );
  cache.onLookup = (name, hit) => lookups.push(`${name}:${hit ? 'hit' : 'miss'}`);
  return { cache, loads, lookups };
}

describe('TokenCache', () => {
  it('answers nothing synchronously before a load, then the cached rows, counting each lookup once', async () => {
    const { cache, loads, lookups } = cacheWithLoads();
    expect(cache.cachedToken('abc')).toBeUndefined();
    expect(cache.cachedUser(3)).toBeUndefined();
    expect(lookups).toEqual([]);

    expect(await cache.token('abc')).toBe(tokenRow);
    expect((await cache.user(3))?.username).toBe('ann');
    expect(lookups).toEqual(['token:miss', 'user:miss']);

    expect(cache.cachedToken('abc')).toBe(tokenRow);
    expect(cache.cachedUser(3)?.username).toBe('ann');
    expect(await cache.token('abc')).toBe(tokenRow);
    expect(loads).toEqual({ tokens: 1, users: 1 });
    expect(lookups).toEqual(['token:miss', 'user:miss', 'token:hit', 'user:hit', 'token:hit']);
  });

  it('remembers a miss as null, and forgets a token once invalidated', async () => {
    const { cache, loads } = cacheWithLoads();
    expect(await cache.token('nope')).toBeNull();
    expect(cache.cachedToken('nope')).toBeNull();
    await cache.token('abc');
    cache.invalidateToken(7);
    expect(cache.cachedToken('abc')).toBeUndefined();
    await cache.token('abc');
    expect(loads.tokens).toBe(3);
  });
});
