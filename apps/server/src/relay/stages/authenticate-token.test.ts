import { describe, expect, it } from 'vitest';
import type { TokenRow } from '../../db/repositories/token-repository.ts';
import { isAddressAllowed, parseRelayKey } from './authenticate-token.ts';

const token = (allow_ips: string) => ({ allow_ips }) as TokenRow;

describe('parseRelayKey', () => {
  it.each([
    ['sk-abc', { key: 'abc', channelId: null }],
    ['abc', { key: 'abc', channelId: null }],
    ['sk-abc-12', { key: 'abc', channelId: 12 }],
    ['sk-abc-x', { key: 'abc', channelId: null }],
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
