import type { IncomingMessage } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { clientAddressOf } from '../relay/lane/client-address.ts';
import { UNTRUSTED_FORWARD_WARN_EVERY_MS, untrustedForwardWarning } from './untrusted-forward-warning.ts';

const request = (remoteAddress: string, forwarded?: string) =>
  ({
    headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
    socket: { remoteAddress },
    connection: { remoteAddress },
  }) as unknown as IncomingMessage;

function recorder() {
  const lines: Array<{ fields: unknown; message: string }> = [];
  const log = { warn: (fields: unknown, message: string) => lines.push({ fields, message }) };
  return { lines, log: log as unknown as FastifyBaseLogger };
}

describe('untrustedForwardWarning', () => {
  it('warns once an hour about X-Forwarded-For from an untrusted address, saying how to trust it', () => {
    const { lines, log } = recorder();
    let clock = 1_000;
    const check = untrustedForwardWarning('loopback', log, () => clock);
    check(request('10.0.0.5'));
    check(request('127.0.0.1', '203.0.113.7'));
    expect(lines).toEqual([]);
    check(request('172.18.0.3', '203.0.113.7'));
    check(request('172.18.0.3', '203.0.113.7'));
    expect(lines).toHaveLength(1);
    expect(lines[0]?.message).toContain('TRUSTED_PROXIES=loopback,172.18.0.3');
    clock += UNTRUSTED_FORWARD_WARN_EVERY_MS;
    check(request('192.168.1.9', '203.0.113.7'));
    expect(lines).toHaveLength(2);
  });

  it('never warns when every hop is trusted, always considers it when none is', () => {
    const { lines, log } = recorder();
    untrustedForwardWarning(true, log)(request('10.0.0.5', '203.0.113.7'));
    expect(lines).toEqual([]);
    untrustedForwardWarning(false, log)(request('127.0.0.1', '203.0.113.7'));
    expect(lines).toHaveLength(1);
  });
});

describe('client address under the default TRUSTED_PROXIES (loopback)', () => {
  it('takes X-Forwarded-For from loopback only, not from private networks', () => {
    const clientOf = clientAddressOf('loopback');
    expect(clientOf(request('127.0.0.1', '203.0.113.7'))).toBe('203.0.113.7');
    expect(clientOf(request('10.1.2.3', '203.0.113.7'))).toBe('10.1.2.3');
    expect(clientOf(request('192.168.0.4', '203.0.113.7'))).toBe('192.168.0.4');
    expect(clientOf(request('fd00::1', '203.0.113.7'))).toBe('fd00::1');
  });
});
