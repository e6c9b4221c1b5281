import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chatBody,
  createChannel,
  createToken,
  expectOpenAIError,
  type RelayFixture,
  relayPost,
  startRelayFixture,
} from './relay-support.ts';

/**
 * X-Forwarded-For from an address TRUSTED_PROXIES does not name is ignored (the token's IP
 * allow-list sees the socket's address) and logged once, with how to trust the proxy. Loopback
 * stands for a docker or LAN proxy here: it is left out of TRUSTED_PROXIES.
 */
describe('X-Forwarded-For from an untrusted proxy', () => {
  let f: RelayFixture;
  const warnings: Array<{ msg: string; remoteAddress?: string }> = [];

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) {
          if (line.trim() === '') continue;
          const parsed = JSON.parse(line);
          if (String(parsed.msg).includes('X-Forwarded-For')) warnings.push(parsed);
        }
        done();
      },
    });
    f = await startRelayFixture({ TRUSTED_PROXIES: '10.9.9.9' }, { logger: { level: 'warn', stream } });
    await createChannel(f);
  });
  afterAll(async () => f.close());

  it('ignores the header for the allow-list and warns once, saying how to trust the proxy', async () => {
    const { key } = await createToken(f.root, { name: 'allow-listed', allow_ips: '203.0.113.7' });
    const forwarded = { 'x-forwarded-for': '203.0.113.7' };
    expectOpenAIError(await relayPost(f, key, chatBody('gpt-4o-mini', 'hi'), { headers: forwarded }), 403);
    const status = await fetch(`${f.baseUrl}/api/status`, { headers: forwarded });
    expect(status.status).toBe(200);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.remoteAddress).toBe('127.0.0.1');
    expect(warnings[0]?.msg).toContain('TRUSTED_PROXIES=loopback,127.0.0.1');
    // Requests without the header never warn.
    expect((await relayPost(f, key, chatBody('gpt-4o-mini', 'hi'))).status).toBe(403);
    expect(warnings).toHaveLength(1);
  });
});
