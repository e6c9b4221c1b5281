import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleClient, envelope } from '../helper.ts';
import {
  chatBody,
  createChannel,
  createToken,
  type RelayFixture,
  relayPost,
  setOption,
  settledLogs,
  startRelayFixture,
  userBalance,
} from './relay-support.ts';

const BALANCE = 20_000;
const CALLS = 100;
/** A long answer without max_tokens: 2,000 completion tokens, far beyond the reservation's 500. */
const LONG = '[[mock:chunks-2000,slow-first-byte-3000]] write at length';

/**
 * Usage beyond the balance is charged in full, as the reference does: a user with 20,000 quota
 * sends 100 concurrent long answers without max_tokens to a ratio-priced model. The reservations
 * held at once never exceed the balance, the calls served are charged their whole cost (nothing
 * written off), the debt is at most one call's overshoot per call served, the consume logs add up
 * to the used quota, and the user is refused until a top-up.
 */
describe('usage beyond the balance', () => {
  let f: RelayFixture;
  let userId: number;
  let key: string;

  const createUser = async (username: string, quota: number): Promise<ConsoleClient> => {
    expect(envelope(await f.root.post('/api/user/', { username, password: 'password123' })).success).toBe(
      true,
    );
    const found = envelope(await f.root.get(`/api/user/search?keyword=${username}`)).data.items[0];
    expect(envelope(await f.root.put('/api/user/', { ...found, quota })).success).toBe(true);
    return f.t.login(username, 'password123');
  };
  const heldNow = () =>
    f.t.app.services.database.db
      .selectFrom('reservations')
      .select(['amount'])
      .where('user_id', '=', userId)
      .where('state', '=', 'reserved')
      .execute();

  beforeAll(async () => {
    f = await startRelayFixture();
    await createChannel(f, { models: 'gpt-4o' });
    const client = await createUser('debtor', BALANCE);
    userId = client.userId!;
    key = (await createToken(client)).key;
  });
  afterAll(async () => f.close());

  it('charges every served call in full and bounds the debt by the reservations', async () => {
    let answered = 0;
    let largestHeld = 0;
    let reservation = 0;
    const calls = Array.from({ length: CALLS }, () =>
      relayPost(f, key, chatBody('gpt-4o', LONG)).finally(() => {
        answered += 1;
      }),
    );
    // While the served calls wait for their first byte (3 s): what is held at once.
    await expect
      .poll(
        async () => {
          const held = await heldNow();
          const sum = held.reduce((total, row) => total + Number(row.amount), 0);
          largestHeld = Math.max(largestHeld, sum);
          if (held.length > 0) reservation = Number(held[0]!.amount);
          return answered + held.length >= CALLS;
        },
        { timeout: 20_000, interval: 50 },
      )
      .toBe(true);
    const replies = await Promise.all(calls);
    const served = replies.filter((reply) => reply.status === 200);
    const refused = replies.filter((reply) => reply.status !== 200);
    expect(served.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    for (const reply of refused) {
      expect(reply.status).toBe(403);
      expect(reply.json.error.message).toContain('用户额度不足');
    }
    expect(largestHeld).toBeLessThanOrEqual(BALANCE);
    expect(reservation).toBeGreaterThan(0);

    const logs = (await settledLogs(f)).filter((log) => log.user_id === userId);
    expect(logs).toHaveLength(served.length);
    for (const log of logs) expect(JSON.parse(log.other ?? '{}').shortfall_quota ?? 0).toBe(0);
    const costs = logs.map((log) => Number(log.quota));
    const charged = costs.reduce((total, cost) => total + cost, 0);
    const books = await userBalance(f, userId);
    // Nothing written off: what the logs say was used is what left the balance.
    expect(Number(books.used_quota)).toBe(charged);
    expect(Number(books.quota)).toBe(BALANCE - charged);
    expect(Number(books.quota)).toBeLessThan(0);
    // The debt: at most one call's overshoot (cost beyond its reservation) per call served.
    const overshoot = Math.max(...costs) - reservation;
    expect(-Number(books.quota)).toBeLessThanOrEqual(served.length * overshoot);
  });

  it('refuses the user below zero until a top-up brings the balance above zero', async () => {
    const refused = await relayPost(f, key, chatBody('gpt-4o', 'hi'));
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toContain('用户额度不足');
    const books = await userBalance(f, userId);
    const found = envelope(await f.root.get(`/api/user/${userId}`)).data;
    // A top-up that leaves the balance below zero still refuses; one above zero serves again.
    const topUp = (quota: number) => f.root.put('/api/user/', { ...found, quota });
    expect(envelope(await topUp(Number(books.quota) + 1)).success).toBe(true);
    expect((await relayPost(f, key, chatBody('gpt-4o', 'hi'))).status).toBe(403);
    expect(envelope(await topUp(BALANCE)).success).toBe(true);
    const after = await relayPost(f, key, chatBody('gpt-4o', 'hi'));
    expect(after.status, JSON.stringify([after.json, await userBalance(f, userId)])).toBe(200);
  });

  it('reserves the larger estimate an operator sets for a model (PreConsumedQuotaByModel)', async () => {
    const client = await createUser('estimated', BALANCE);
    const { key: estimatedKey } = await createToken(client);
    expect((await relayPost(f, estimatedKey, chatBody('gpt-4o', 'hi'))).status).toBe(200);
    // 20,000 completion tokens at gpt-4o's ratios is far more than the 20,000 quota left.
    await setOption(f, 'PreConsumedQuotaByModel', JSON.stringify({ 'gpt-4o': 20_000 }));
    const refused = await relayPost(f, estimatedKey, chatBody('gpt-4o', 'hi'));
    expect(refused.status).toBe(403);
    // A call with max_tokens is sized by it, not by the estimate.
    expect((await relayPost(f, estimatedKey, chatBody('gpt-4o', 'hi', { max_tokens: 50 }))).status).toBe(200);
    await setOption(f, 'PreConsumedQuotaByModel', '{}');
    expect((await relayPost(f, estimatedKey, chatBody('gpt-4o', 'hi'))).status).toBe(200);
  });
});
