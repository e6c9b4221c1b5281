import { TokenStatus } from '@switchyard/shared';
import { describe, expect, it } from 'vitest';
import type { TokenRow } from '../../db/repositories/token-repository.ts';
import type { RelayRequest } from '../lane/relay-request.ts';
import type { RelayRuntime } from '../relay-runtime.ts';
import { TokenCache } from '../token-cache.ts';
import { authenticateToken, isAddressAllowed, parseRelayKey } from './authenticate-token.ts';

const token = (allow_ips: string) => ({ allow_ips }) as TokenRow;

describe('parseRelayKey', () => {
  it.each([
    ['sk-abc', { key: 'abc', channelId: null }],
    ['abc', { key: 'abc', channelId: null }],
    ['sk-abc-12', { key: 'abc', channelId: 12 }],
    ['sk-abc-x', { key: 'abc', channelId: null }],
    ['sk-abc-12-34', { key: 'abc', channelId: 12 }],
    ['sk-abc--12', { key: 'abc', channelId: null }],
    ['sk--12', { key: '', channelId: 12 }],
    ['sk-abc-', { key: 'abc', channelId: null }],
    ['sk-abc-12345678901', { key: 'abc', channelId: null }],
    ['', { key: '', channelId: null }],
  ])('%s', (raw, expected) => {
    expect(parseRelayKey(raw)).toEqual(expected);
  });
});

describe('isAddressAllowed', () => {
  it('allows everyone with an empty list', () => {
    expect(isAddressAllowed(token(''), '10.0.0.1')).toBe(true);
  });
  it('matches single addresses, CIDR ranges and IPv4-mapped IPv6', () => {
    const t = token('127.0.0.1\n10.1.0.0/16\n2001:db8::/32');
    expect(isAddressAllowed(t, '127.0.0.1')).toBe(true);
    expect(isAddressAllowed(t, '::ffff:127.0.0.1')).toBe(true);
    expect(isAddressAllowed(t, '10.1.200.3')).toBe(true);
    expect(isAddressAllowed(t, '10.2.0.1')).toBe(false);
    expect(isAddressAllowed(t, '2001:db8::1')).toBe(true);
    expect(isAddressAllowed(t, 'garbage')).toBe(false);
  });
});

describe('authenticateToken', () => {
  const enabledToken = {
    id: 7,
    user_id: 3,
    status: TokenStatus.Enabled,
    expired_time: -1,
    unlimited_quota: true,
    remain_quota: 0,
    allow_ips: '',
    deleted_at: null,
  } as unknown as TokenRow;
  const user = { id: 3, username: 'ann', role: 10, status: 1, group: 'default', deleted: false, setting: '' };
  const request = (authorization: string) =>
    ({ headers: { authorization }, ip: '127.0.0.1', query: {} }) as unknown as RelayRequest;
  const runtimeWith = (cache: TokenCache) => ({ tokenCache: cache }) as unknown as RelayRuntime;
  const noMark = () => undefined;

  it('answers from the cache without a promise, and through one on a miss', async () => {
    const cache = new TokenCache(
      async () => enabledToken,
      async () => ({ ...user, deleted_at: null }) as never,
      60_000,
    );
    const first = authenticateToken(request('Bearer sk-abc'), runtimeWith(cache), noMark);
    expect(first).toBeInstanceOf(Promise);
    expect((await first).user.username).toBe('ann');
    const second = authenticateToken(request('Bearer sk-abc-12'), runtimeWith(cache), noMark);
    expect(second).not.toBeInstanceOf(Promise);
    expect(second).toMatchObject({ token: enabledToken, pinnedChannelId: 12 });
  });

  it('throws a refusal synchronously from the cache, and rejects with it after a load', async () => {
    const cache = new TokenCache(
      async () => ({ ...enabledToken, status: TokenStatus.Disabled }) as TokenRow,
      async () => undefined,
      60_000,
    );
    await expect(authenticateToken(request('Bearer sk-abc'), runtimeWith(cache), noMark)).rejects.toThrow(
      '该令牌状态不可用',
    );
    expect(() => authenticateToken(request('Bearer sk-abc'), runtimeWith(cache), noMark)).toThrow(
      '该令牌状态不可用',
    );
    expect(() => authenticateToken(request(''), runtimeWith(cache), noMark)).toThrow('未提供令牌');
  });
});
