import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type ConsoleClient, envelope, type TestApp } from '../helper.ts';

// Updates, status rules, soft deletion, ownership isolation and bad input of /api/token.

const PASSWORD = 'password123';
/** A key as lists, get and update replies send it: the stored 48 characters, no `sk-`. */
const STORED_KEY = /^[0-9a-zA-Z]{48}$/;
const EXPIRED_MESSAGE = '令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期';
const EXHAUSTED_MESSAGE = '令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度';
const nowSeconds = () => Math.floor(Date.now() / 1000);

function expectRefused(response: { statusCode: number; json(): unknown }, message?: string | RegExp) {
  expect(response.statusCode).toBeLessThan(500);
  const body = response.json() as { success: boolean; message: string };
  expect(body.success).toBe(false);
  if (typeof message === 'string') expect(body.message).toBe(message);
  else if (message) expect(body.message).toMatch(message);
  return body;
}

describe('tokens: update, status, delete, isolation', () => {
  let t: TestApp;
  let root: ConsoleClient;
  const events: string[] = [];

  const createUser = async (username: string) => {
    const created = envelope(await root.post('/api/user/', { username, password: PASSWORD }));
    expect(created.success, created.message).toBe(true);
    return t.login(username, PASSWORD);
  };
  const createToken = async (client: ConsoleClient, body: Record<string, unknown> = {}) => {
    const reply = envelope(await client.post('/api/token/', { name: 'token', remain_quota: 1000, ...body }));
    expect(reply.success, reply.message).toBe(true);
    return reply.data[0] as { id: number; name: string; key: string };
  };
  /** What the relay does when it finds a token expired or exhausted (no API sets 3/4). */
  const forceState = (
    id: number,
    state: { status?: number; expired_time?: number; remain_quota?: number; unlimited_quota?: number },
  ) => t.app.services.database.db.updateTable('tokens').set(state).where('id', '=', id).execute();
  const stored = async (id: number) => (await t.app.services.tokens.findById(id))!;

  beforeAll(async () => {
    t = await buildTestApp();
    root = await t.login('root', '123456');
    t.app.services.bus.subscribe((topic, detail) => events.push(`${topic}:${detail}`));
  });
  afterAll(async () => t.close());

  it('updates the given fields and publishes the change', async () => {
    const ivan = await createUser('ivan');
    const token = await createToken(ivan, { name: 'before' });
    events.length = 0;
    const future = nowSeconds() + 86_400;
    const reply = envelope(
      await ivan.put('/api/token/', {
        id: token.id,
        name: ' after ',
        remain_quota: 2_000,
        unlimited_quota: true,
        expired_time: future,
        model_limits_enabled: true,
        model_limits: 'a, b ,a',
        allow_ips: '192.168.0.0/16\n\n',
        group: 'vip',
        // Fields the console echoes back are ignored, status included.
        key: 'sk-forged',
        used_quota: 99,
        status: 2,
      }),
    );
    expect(reply.success, reply.message).toBe(true);
    expect(reply.data).toMatchObject({
      id: token.id,
      name: 'after',
      remain_quota: 2_000,
      unlimited_quota: true,
      expired_time: future,
      model_limits_enabled: true,
      model_limits: 'a,b',
      allow_ips: '192.168.0.0/16',
      group: 'vip',
      status: 1,
      used_quota: 0,
    });
    expect(reply.data.key).toMatch(STORED_KEY);
    expect((await stored(token.id)).key).toBe(token.key.slice(3));
    expect(events).toEqual([`tokens:${token.id}`]);

    // A partial update leaves the other fields alone.
    const partial = envelope(await ivan.put('/api/token/', { id: token.id, remain_quota: 0 }));
    expect(partial.data).toMatchObject({
      name: 'after',
      remain_quota: 0,
      group: 'vip',
      unlimited_quota: true,
    });

    expectRefused(await ivan.put('/api/token/', { id: token.id, name: '' }), '令牌名称不能为空');
    expectRefused(await ivan.put('/api/token/', { id: token.id, name: 'z'.repeat(31) }), '令牌名称过长');
    expectRefused(await ivan.put('/api/token/', { id: token.id, remain_quota: -5 }), '额度不能为负数');
    expectRefused(await ivan.put('/api/token/', { id: token.id, group: 'svip' }), '无权使用该分组');
    expectRefused(
      await ivan.put('/api/token/', { id: token.id, allow_ips: 'localhost' }),
      /IP 白名单格式错误/,
    );
    expectRefused(
      await ivan.put('/api/token/', { id: token.id, expired_time: nowSeconds() - 10 }),
      '过期时间不能早于当前时间',
    );
    expect((await stored(token.id)).name).toBe('after');
  });

  it('toggles status between enabled and disabled with status_only', async () => {
    const judy = await createUser('judy');
    const token = await createToken(judy, { name: 'toggle' });
    events.length = 0;
    const off = envelope(
      await judy.put('/api/token/?status_only=true', { id: token.id, status: 2, name: 'ignored' }),
    );
    expect(off.data).toMatchObject({ status: 2, name: 'toggle' });
    expect(events).toEqual([`tokens:${token.id}`]);
    const on = envelope(await judy.put('/api/token/?status_only=true', { id: token.id, status: 1 }));
    expect(on.data.status).toBe(1);

    const bad = /令牌状态只能设置为启用/;
    expectRefused(await judy.put('/api/token/?status_only=true', { id: token.id, status: 3 }), bad);
    expectRefused(await judy.put('/api/token/?status_only=true', { id: token.id, status: 4 }), bad);
    expectRefused(await judy.put('/api/token/?status_only=true', { id: token.id }), bad);
    expectRefused(await judy.put('/api/token/?status_only=true', { id: token.id, status: '2' }));
    // status_only=false is a full update, where status is ignored.
    const full = envelope(await judy.put('/api/token/?status_only=false', { id: token.id, status: 2 }));
    expect(full.data.status).toBe(1);
  });

  it('refuses to enable an expired or exhausted token through status_only', async () => {
    const kim = await createUser('kim');
    const expired = await createToken(kim, { name: 'expired' });
    await forceState(expired.id, { status: 3, expired_time: nowSeconds() - 60 });
    expectRefused(
      await kim.put('/api/token/?status_only=true', { id: expired.id, status: 1 }),
      EXPIRED_MESSAGE,
    );
    // A disabled token whose time has passed cannot be enabled either.
    await forceState(expired.id, { status: 2 });
    expectRefused(
      await kim.put('/api/token/?status_only=true', { id: expired.id, status: 1 }),
      EXPIRED_MESSAGE,
    );

    const exhausted = await createToken(kim, { name: 'exhausted' });
    await forceState(exhausted.id, { status: 4, remain_quota: 0 });
    expectRefused(
      await kim.put('/api/token/?status_only=true', { id: exhausted.id, status: 1 }),
      EXHAUSTED_MESSAGE,
    );
    // Disabling stays possible.
    expect(
      envelope(await kim.put('/api/token/?status_only=true', { id: exhausted.id, status: 2 })).data.status,
    ).toBe(2);

    // Unlimited tokens are never exhausted.
    const unlimited = await createToken(kim, { name: 'unlimited', remain_quota: 0, unlimited_quota: true });
    await forceState(unlimited.id, { status: 2 });
    expect(
      envelope(await kim.put('/api/token/?status_only=true', { id: unlimited.id, status: 1 })).data.status,
    ).toBe(1);
  });

  it('re-enables an expired or exhausted token when a full update fixes it', async () => {
    const leo = await createUser('leo');
    const past = nowSeconds() - 60;

    const expired = await createToken(leo, { name: 'expired' });
    await forceState(expired.id, { status: 3, expired_time: past });
    // Renaming while resending the stored (past) expiry is allowed and keeps the status.
    const renamed = envelope(
      await leo.put('/api/token/', { id: expired.id, name: 'renamed', expired_time: past }),
    );
    expect(renamed.data).toMatchObject({ name: 'renamed', status: 3, expired_time: past });
    const future = nowSeconds() + 3_600;
    const fixed = envelope(await leo.put('/api/token/', { id: expired.id, expired_time: future }));
    expect(fixed.data).toMatchObject({ status: 1, expired_time: future });

    const exhausted = await createToken(leo, { name: 'exhausted' });
    await forceState(exhausted.id, { status: 4, remain_quota: 0 });
    expect(envelope(await leo.put('/api/token/', { id: exhausted.id, remain_quota: 500 })).data.status).toBe(
      1,
    );

    const unlimited = await createToken(leo, { name: 'to-unlimited' });
    await forceState(unlimited.id, { status: 4, remain_quota: 0 });
    expect(
      envelope(await leo.put('/api/token/', { id: unlimited.id, unlimited_quota: true })).data.status,
    ).toBe(1);

    // Quota added but the expiry has passed: now it is expired rather than exhausted.
    const both = await createToken(leo, { name: 'both' });
    await forceState(both.id, { status: 4, remain_quota: 0, expired_time: past });
    expect(envelope(await leo.put('/api/token/', { id: both.id, remain_quota: 500 })).data.status).toBe(3);
    expect(envelope(await leo.put('/api/token/', { id: both.id, expired_time: -1 })).data.status).toBe(1);

    // A disabled token stays disabled whatever the update.
    const disabled = await createToken(leo, { name: 'disabled' });
    await forceState(disabled.id, { status: 2 });
    expect(envelope(await leo.put('/api/token/', { id: disabled.id, remain_quota: 9 })).data.status).toBe(2);
  });

  it('soft-deletes: gone from lists, search, get and the relay lookup', async () => {
    const mia = await createUser('mia');
    const keep = await createToken(mia, { name: 'keep' });
    const gone = await createToken(mia, { name: 'gone' });
    events.length = 0;
    const reply = envelope(await mia.delete(`/api/token/${gone.id}/`));
    expect(reply.success, reply.message).toBe(true);
    expect(events).toEqual([`tokens:${gone.id}`]);

    const list = envelope(await mia.get('/api/token/')).data;
    expect(list.map((item: { id: number }) => item.id)).toEqual([keep.id]);
    expect(envelope(await mia.get('/api/token/search?keyword=gone')).data).toEqual([]);
    expectRefused(await mia.get(`/api/token/${gone.id}`), '令牌不存在');
    expectRefused(await mia.post(`/api/token/${gone.id}/key`), '令牌不存在');
    expectRefused(await mia.put('/api/token/', { id: gone.id, name: 'back' }), '令牌不存在');
    expectRefused(await mia.put('/api/token/?status_only=true', { id: gone.id, status: 1 }), '令牌不存在');
    expectRefused(await mia.delete(`/api/token/${gone.id}`), '令牌不存在');

    const row = await stored(gone.id);
    expect(row.deleted_at).toBeGreaterThan(0);
    expect(await t.app.services.tokens.findByKey(gone.key.slice(3))).toBeUndefined();
    expect((await t.app.services.tokens.findByKey(keep.key.slice(3)))?.id).toBe(keep.id);
  });

  it("never shows or changes another user's token, admins included", async () => {
    const nina = await createUser('nina');
    const oscar = await createUser('oscar');
    const token = await createToken(nina, { name: 'nina-only' });
    for (const other of [oscar, root]) {
      expectRefused(await other.get(`/api/token/${token.id}`), '令牌不存在');
      expectRefused(await other.post(`/api/token/${token.id}/key`), '令牌不存在');
      expectRefused(await other.put('/api/token/', { id: token.id, name: 'stolen' }), '令牌不存在');
      expectRefused(
        await other.put('/api/token/?status_only=true', { id: token.id, status: 2 }),
        '令牌不存在',
      );
      expectRefused(await other.delete(`/api/token/${token.id}`), '令牌不存在');
      expect(envelope(await other.get('/api/token/?size=100')).data).toEqual([]);
      expect(envelope(await other.get('/api/token/search?keyword=nina')).data).toEqual([]);
    }
    expect(await stored(token.id)).toMatchObject({ name: 'nina-only', status: 1, deleted_at: null });
    // A client claiming another user id in New-Api-User is refused before any lookup.
    const spoofed = await oscar.get(`/api/token/${token.id}`, { 'new-api-user': String(nina.userId) });
    expect(spoofed.statusCode).toBe(401);
  });

  it('answers bad input with the envelope, never a 500', async () => {
    const pat = await createUser('pat');
    const token = await createToken(pat);
    const raw = (method: 'POST' | 'PUT', payload: string) =>
      pat.request(method, '/api/token/', payload, { 'content-type': 'application/json' });

    expectRefused(await raw('POST', '{"name": "broken"'));
    expectRefused(await raw('PUT', '{not json}'));
    expectRefused(await raw('POST', '[]'));
    expectRefused(await raw('PUT', 'null'));
    expectRefused(await pat.put('/api/token/', { name: 'no id' }));
    expectRefused(await pat.put('/api/token/', { id: String(token.id), name: 'string id' }));
    expectRefused(await pat.put('/api/token/', { id: -1, name: 'negative' }));
    expectRefused(await pat.put('/api/token/', { id: 2 ** 40, name: 'huge' }));
    expectRefused(await pat.put('/api/token/', { id: 987_654, name: 'unknown' }), '令牌不存在');
    expectRefused(await pat.put('/api/token/', { id: token.id, unlimited_quota: 'yes' }));
    expectRefused(await pat.put('/api/token/', { id: token.id, model_limits: ['a', 'b'] }));
    expectRefused(await pat.put('/api/token/', { id: token.id, group: 7 }));
    expectRefused(await pat.post('/api/token/', { name: 'x', allow_ips: 12 }));
    expectRefused(await pat.delete('/api/token/abc'));
    expectRefused(await pat.delete('/api/token/987654'), '令牌不存在');
    // A non-integer size reads as 0 (strconv.Atoi), i.e. the default.
    expect(envelope(await pat.get('/api/token/search?size=abc')).success).toBe(true);
    expectRefused(await pat.get(`/api/token/search?keyword=${'k'.repeat(300)}`));
    expect(await stored(token.id)).toMatchObject({ name: 'token', status: 1 });
  });
});
