import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope } from '../helper.ts';
import {
  createChannel,
  createToken,
  type RelayFixture,
  setOption,
  startRelayFixture,
} from './relay-support.ts';

/** Waits until no settlement is running and the log table has stopped growing. */
async function quiesce(f: RelayFixture): Promise<void> {
  let last = -1;
  for (let i = 0; i < 50; i++) {
    await f.t.app.services.relay.drain();
    const row = await f.t.app.services.logDatabase.db
      .selectFrom('logs')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    if (Number(row.count) === last && f.t.app.services.relay.settlements.size === 0) return;
    last = Number(row.count);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error('relay did not settle');
}

async function ledger(f: RelayFixture, userId: number, tokenId: number) {
  const db = f.t.app.services.database.db;
  const user = await db
    .selectFrom('users')
    .select(['quota', 'used_quota', 'request_count'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const token = await db
    .selectFrom('tokens')
    .select(['remain_quota', 'used_quota'])
    .where('id', '=', tokenId)
    .executeTakeFirstOrThrow();
  const logs = await f.t.app.services.logDatabase.db
    .selectFrom('logs')
    .select((eb) => [eb.fn.sum<number>('quota').as('quota'), eb.fn.countAll<number>().as('count')])
    .where('user_id', '=', userId)
    .where('type', '=', 2)
    .executeTakeFirstOrThrow();
  return { user, token, logQuota: Number(logs.quota ?? 0), logCount: Number(logs.count) };
}

type Kind = 'json' | 'stream' | 'no-usage' | 'abort' | 'all-fail';

async function send(f: RelayFixture, key: string, kind: Kind, index: number): Promise<number> {
  const directive = {
    json: '',
    stream: '',
    'no-usage': ' [[mock:no-usage]]',
    abort: ' [[mock:chunks-40,slow-stream-20]]',
    'all-fail': ' [[mock:error-500]]',
  }[kind];
  const stream = kind === 'stream' || kind === 'abort' || (kind === 'no-usage' && index % 2 === 0);
  const controller = new AbortController();
  const response = await fetch(`${f.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'gpt-4o-mini',
      stream,
      max_tokens: 200,
      messages: [{ role: 'user', content: `request number ${index} with some words to count${directive}` }],
    }),
    signal: controller.signal,
  });
  if (kind === 'abort' && response.body) {
    const reader = response.body.getReader();
    await reader.read();
    await reader.read();
    controller.abort();
    await reader.cancel().catch(() => undefined);
    return response.status;
  }
  await response.arrayBuffer();
  return response.status;
}

describe('billing exactness under concurrency', () => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await startRelayFixture();
    await setOption(f, 'RetryTimes', '1');
    // Same priority: about half the attempts hit the failing channel first and retry on the good one.
    await createChannel(f, { name: 'failing', base_url: `${f.mock.url}/__mock/error-500` });
    await createChannel(f, { name: 'good' });
  });
  afterAll(async () => f.close());

  it('keeps log quota, used quota and balances equal after mixed concurrent traffic', async () => {
    expect(
      envelope(await f.root.post('/api/user/', { username: 'payer', password: 'payer-password' })).success,
    ).toBe(true);
    const search = envelope(await f.root.get('/api/user/search?keyword=payer'));
    const userId = search.data.items[0].id as number;
    expect(envelope(await f.root.put('/api/user/', { id: userId, quota: 5_000_000 })).success).toBe(true);
    const payer = await f.t.login('payer', 'payer-password');
    const { key, id: tokenId } = await createToken(payer, {
      unlimited_quota: false,
      remain_quota: 3_000_000,
    });
    const start = await ledger(f, userId, tokenId);

    const kinds: Kind[] = ['json', 'stream', 'no-usage', 'abort', 'all-fail'];
    const statuses = await Promise.all(
      Array.from({ length: 60 }, (_, i) => send(f, key, kinds[i % kinds.length]!, i)),
    );
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(40);
    expect(statuses.filter((s) => s >= 500).length).toBe(12); // the all-fail requests
    await quiesce(f);

    const end = await ledger(f, userId, tokenId);
    const used = end.user.used_quota - start.user.used_quota;
    expect(used).toBeGreaterThan(0);
    expect(end.logQuota - start.logQuota).toBe(used);
    expect(end.token.used_quota - start.token.used_quota).toBe(used);
    expect(start.user.quota - end.user.quota).toBe(used);
    expect(start.token.remain_quota - end.token.remain_quota).toBe(used);
    // json + stream + no-usage always bill; aborted streams bill what was delivered; all-fail refunds.
    expect(end.logCount - start.logCount).toBe(end.user.request_count - start.user.request_count);
    expect(end.logCount - start.logCount).toBeGreaterThanOrEqual(36);
    expect(end.user.quota).toBeGreaterThanOrEqual(0);
  });

  it('never overdraws a small balance, whatever the concurrency', async () => {
    expect(
      envelope(await f.root.post('/api/user/', { username: 'smallpay', password: 'small-password' })).success,
    ).toBe(true);
    const search = envelope(await f.root.get('/api/user/search?keyword=smallpay'));
    const userId = search.data.items[0].id as number;
    // Each call reserves (prompt + 200 completion × 4) × 0.075 ≈ 62 quota; 400 covers only a few.
    expect(envelope(await f.root.put('/api/user/', { id: userId, quota: 400 })).success).toBe(true);
    const small = await f.t.login('smallpay', 'small-password');
    const { key, id: tokenId } = await createToken(small);
    const start = await ledger(f, userId, tokenId);
    const statuses = await Promise.all(Array.from({ length: 30 }, (_, i) => send(f, key, 'json', i)));
    expect(statuses.filter((s) => s === 403).length).toBeGreaterThan(0);
    await quiesce(f);
    const end = await ledger(f, userId, tokenId);
    expect(end.user.quota).toBeGreaterThanOrEqual(0);
    const used = end.user.used_quota - start.user.used_quota;
    expect(start.user.quota - end.user.quota).toBe(used);
    expect(end.logQuota - start.logQuota).toBe(used);
    expect(end.token.used_quota - start.token.used_quota).toBe(used);
  });
});
