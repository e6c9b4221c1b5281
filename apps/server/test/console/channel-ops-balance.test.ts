import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { envelope } from '../helper.ts';
import { createCommonUser, type RelayFixture, startRelayFixture } from '../relay/relay-support.ts';
import { mockChannel, readChannel, resetState, setOptions } from './channel-ops-support.ts';

describe('channel balances: GET /api/channel/update_balance[/:id] (reference §8.3)', () => {
  let f: RelayFixture;

  beforeAll(async () => {
    f = await startRelayFixture();
  });
  afterEach(async () => resetState(f));
  afterAll(async () => f.close());

  it('reads an OpenAI-style balance (subscription hard limit − usage) and stores it', async () => {
    const plain = await mockChannel(f);
    const start = f.mock.requests.length;
    const reply = (await f.root.get(`/api/channel/update_balance/${plain}/`)).json();
    expect(reply).toMatchObject({ success: true, balance: 75, data: { balance: 75 } });
    const paths = f.mock.requests.slice(start).map((request) => request.path);
    expect(paths).toEqual(['/v1/dashboard/billing/subscription', '/v1/dashboard/billing/usage']);
    expect(String(f.mock.requests.at(-1)!.url)).toMatch(
      /start_date=\d{4}-\d{2}-\d{2}&end_date=\d{4}-\d{2}-\d{2}/,
    );
    expect(f.mock.requests.at(-1)!.headers.authorization).toBe('Bearer sk-mock-upstream');

    const custom = await mockChannel(f, { scenario: 'balance-42' });
    expect((await f.root.get(`/api/channel/update_balance/${custom}`)).json().balance).toBe(42);
    const row = await readChannel(f, custom);
    expect(Number(row.balance)).toBe(42);
    expect(Number(row.balance_updated_time)).toBeGreaterThan(0);
  });

  it('reports unreadable balances and unsupported types as messages, never as a balance of 0', async () => {
    const failing = await mockChannel(f, { scenario: 'error-401', key: 'sk-secret-balance' });
    const reply = envelope(await f.root.get(`/api/channel/update_balance/${failing}`));
    expect(reply.success).toBe(false);
    expect(reply.message).toContain('status code 401');
    expect(reply.message).not.toContain('sk-secret-balance');
    expect(Number((await readChannel(f, failing)).balance_updated_time)).toBe(0);

    const anthropic = await mockChannel(f, { type: 14 });
    expect(envelope(await f.root.get(`/api/channel/update_balance/${anthropic}`))).toMatchObject({
      success: false,
      message: '尚未实现该渠道类型的余额查询',
    });
    expect(envelope(await f.root.get('/api/channel/update_balance/999999'))).toMatchObject({
      success: false,
      message: '渠道不存在',
    });
  });

  it('updates every enabled channel and disables an empty one only when auto-disable is on', async () => {
    const rich = await mockChannel(f, { scenario: 'balance-42' });
    const empty = await mockChannel(f, { scenario: 'balance-0' });
    const broken = await mockChannel(f, { scenario: 'error-500' });
    const unsupported = await mockChannel(f, { type: 14 });
    const disabled = await mockChannel(f, { scenario: 'balance-7', status: 2 });
    let reply = envelope(await f.root.get('/api/channel/update_balance'));
    expect(reply).toMatchObject({ success: true, data: { updated: 2, failed: 1, skipped: 1, disabled: 0 } });
    expect((await readChannel(f, empty)).status).toBe(1);
    expect(Number((await readChannel(f, disabled)).balance_updated_time)).toBe(0);

    await setOptions(f, { AutomaticDisableChannelEnabled: 'true' });
    reply = envelope(await f.root.get('/api/channel/update_balance'));
    expect(reply.data).toEqual({ updated: 2, failed: 1, skipped: 1, disabled: 1 });
    expect((await readChannel(f, empty)).status).toBe(3);
    expect(JSON.parse((await readChannel(f, empty)).other_info!).status_reason).toBe('余额不足：0');
    expect((await readChannel(f, rich)).status).toBe(1);
    expect(Number((await readChannel(f, rich)).balance)).toBe(42);
    expect((await readChannel(f, broken)).status).toBe(1);
    expect((await readChannel(f, unsupported)).status).toBe(1);
  });

  it('is admin-only', async () => {
    const id = await mockChannel(f);
    const { client } = await createCommonUser(f, 'balance-user', 0);
    for (const url of [`/api/channel/update_balance/${id}`, '/api/channel/update_balance']) {
      expect((await client.get(url)).json().success).toBe(false);
      expect((await f.t.anonymous().get(url)).statusCode).toBe(401);
    }
    expect(Number((await readChannel(f, id)).balance_updated_time)).toBe(0);
  });
});
