import { type MockUpstream, startMockUpstream } from '@switchyard/mock-upstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLedgerProxy, type Target } from './targets.ts';

/**
 * The durable-billing floor the benchmarks compare hot-path work against must really do the
 * billing it stands for: a call is answered with the upstream's body, reserved before and settled
 * after, with the balances, counters and one log row written and no ledger row left.
 */

interface Books {
  quota: number;
  used_quota: number;
  request_count: number;
  remain_quota: number;
  channel_used: number;
  reservations: number;
  logs: number;
  logged: number;
}

const START = 1_000_000_000_000;

describe('ledger-proxy.mjs (durable-billing floor)', () => {
  let mock: MockUpstream;
  let floor: Target;

  beforeAll(async () => {
    mock = await startMockUpstream();
    floor = await startLedgerProxy(mock.url, null, '7');
  });
  afterAll(async () => {
    await floor?.stop();
    await mock?.close();
  });

  const books = async (): Promise<Books> =>
    (await fetch(`${floor.url}/__ledger/books`)).json() as Promise<Books>;
  const chat = (authorization: string) =>
    fetch(`${floor.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hello floor' }] }),
    });

  it('relays a chat call and bills it: reserved, settled at its usage, logged once', async () => {
    const response = await chat(floor.headers.authorization!);
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      choices: unknown[];
      usage: { prompt_tokens: number; completion_tokens: number };
    };
    expect(body.choices).toHaveLength(1);
    const cost = body.usage.prompt_tokens + 2 * body.usage.completion_tokens;
    expect(cost).toBeGreaterThan(0);
    let written = await books();
    for (let tries = 0; written.logs === 0 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      written = await books();
    }
    expect(written).toEqual({
      quota: START - cost,
      used_quota: cost,
      request_count: 1,
      remain_quota: START - cost,
      channel_used: cost,
      reservations: 0,
      logs: 1,
      logged: cost,
    });
  });

  it('refuses a wrong key without touching the books', async () => {
    const before = await books();
    const response = await chat('Bearer sk-not-the-key');
    expect(response.status).toBe(401);
    expect(await books()).toEqual(before);
  });
});
