import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewLog } from '../../src/db/repositories/log-repository.ts';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';
import { createUser, expectOk, expectRefused, ROOT_PASSWORD } from './console-support.ts';

// GET /api/log/stat and /api/log/self/stat (quota, rpm, tpm), and GET /api/log/token (the
// per-token log for key holders), on rows seeded straight into the log database.

const T0 = 1_600_000_000;
const WINDOW = `start_timestamp=${T0}&end_timestamp=${T0 + 1000}`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('logs: stat and token log', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let alice: ConsoleClient;
  let bob: ConsoleClient;
  let aliceId: number;
  let bobId: number;
  let aliceToken: { id: number; key: string };
  let aliceOtherToken: { id: number; key: string };
  let channelId: number;

  /** One row per statement: SQLite fills columns missing from a multi-row insert with NULL, not their default. */
  const insert = async (rows: NewLog[]) => {
    for (const row of rows) await t.app.services.logDatabase.db.insertInto('logs').values(row).execute();
  };
  const createToken = async (client: ConsoleClient, name: string) => {
    const [token] = expectOk(
      await client.post('/api/token/', { name, unlimited_quota: true, expired_time: -1 }),
    );
    return { id: token.id as number, key: token.key as string };
  };

  beforeAll(async () => {
    t = await buildTestApp();
    root = await t.login('root', ROOT_PASSWORD);
    aliceId = await createUser(root, 'alice');
    bobId = await createUser(root, 'bob');
    alice = await t.login('alice', 'password123');
    bob = await t.login('bob', 'password123');
    aliceToken = await createToken(alice, 'main');
    aliceOtherToken = await createToken(alice, 'other');
    channelId = expectOk(
      await root.post('/api/channel/', {
        name: 'c',
        type: 1,
        key: 'sk-x',
        models: 'gpt-4o',
        group: 'default',
      }),
    )[0].id;
    const now = nowSeconds();
    const other = JSON.stringify({ model_ratio: 1, admin_info: { use_channel: [String(channelId)] } });
    const consume = (extra: Partial<NewLog>): NewLog => ({
      type: 2,
      channel_id: channelId,
      group: 'default',
      other,
      ip: '192.0.2.7',
      ...extra,
    });
    await insert([
      // Old rows (2020): count for quota sums in the window, never for rpm/tpm.
      consume({ user_id: aliceId, username: 'alice', model_name: 'gpt-4o', quota: 100, created_at: T0 + 1 }),
      consume({
        user_id: aliceId,
        username: 'alice',
        model_name: 'gpt-4o-mini',
        quota: 20,
        created_at: T0 + 2,
      }),
      consume({ user_id: bobId, username: 'bob', model_name: 'gpt-4o', quota: 300, created_at: T0 + 3 }),
      { user_id: aliceId, username: 'alice', type: 1, quota: 5000, created_at: T0 + 4, content: 'top-up' },
      { user_id: bobId, username: 'bob', type: 3, quota: -40, created_at: T0 + 5, content: 'manage' },
      // Recent rows: the last 60 s.
      consume({
        user_id: aliceId,
        username: 'alice',
        token_id: aliceToken.id,
        token_name: 'main',
        model_name: 'gpt-4o',
        quota: 11,
        prompt_tokens: 10,
        completion_tokens: 5,
        created_at: now - 5,
      }),
      consume({
        user_id: aliceId,
        username: 'alice',
        token_id: aliceToken.id,
        token_name: 'main',
        model_name: 'gpt-4o-mini',
        quota: 12,
        prompt_tokens: 100,
        completion_tokens: 50,
        created_at: now - 10,
      }),
      consume({
        user_id: aliceId,
        username: 'alice',
        token_id: aliceOtherToken.id,
        token_name: 'other',
        model_name: 'gpt-4o',
        quota: 13,
        prompt_tokens: 1,
        completion_tokens: 2,
        created_at: now - 20,
        group: 'vip',
      }),
      consume({
        user_id: bobId,
        username: 'bob',
        model_name: 'gpt-4o',
        quota: 14,
        prompt_tokens: 1000,
        completion_tokens: 1,
        created_at: now - 1,
      }),
      // Outside the 60 s window, and a recent error row: neither counts for rpm/tpm.
      consume({
        user_id: aliceId,
        username: 'alice',
        token_id: aliceToken.id,
        token_name: 'main',
        model_name: 'gpt-4o',
        quota: 15,
        prompt_tokens: 7,
        completion_tokens: 7,
        created_at: now - 300,
      }),
      {
        user_id: aliceId,
        username: 'alice',
        type: 5,
        token_id: aliceToken.id,
        token_name: 'main',
        model_name: 'gpt-4o',
        prompt_tokens: 9,
        created_at: now - 2,
        content: 'error',
      },
    ]);
  });
  afterAll(async () => t.close());

  it('sums consumed quota over the filters and counts the last minute', async () => {
    expect(expectOk(await root.get(`/api/log/stat?${WINDOW}`))).toEqual({ quota: 420, rpm: 4, tpm: 1169 });
    expect(expectOk(await root.get(`/api/log/stat?${WINDOW}&type=2`))).toEqual({
      quota: 420,
      rpm: 4,
      tpm: 1169,
    });
    expect(expectOk(await root.get(`/api/log/stat?${WINDOW}&type=1`)).quota).toBe(5000);
    expect(expectOk(await root.get(`/api/log/stat?${WINDOW}&type=3`)).quota).toBe(-40);
    expect(expectOk(await root.get(`/api/log/stat?${WINDOW}&username=alice`))).toEqual({
      quota: 120,
      rpm: 3,
      tpm: 168,
    });
    expect(expectOk(await root.get(`/api/log/stat?${WINDOW}&model_name=mini`))).toEqual({
      quota: 20,
      rpm: 1,
      tpm: 150,
    });
    expect(expectOk(await root.get(`/api/log/stat?${WINDOW}&username=alice&token_name=main`))).toEqual({
      quota: 0,
      rpm: 2,
      tpm: 165,
    });
    expect(expectOk(await root.get(`/api/log/stat?${WINDOW}&group=vip`))).toEqual({
      quota: 0,
      rpm: 1,
      tpm: 3,
    });
    expect(expectOk(await root.get(`/api/log/stat?${WINDOW}&channel=${channelId}`)).rpm).toBe(4);
    expect(expectOk(await root.get(`/api/log/stat?${WINDOW}&channel=${channelId + 1}`))).toEqual({
      quota: 0,
      rpm: 0,
      tpm: 0,
    });
    // Without a time range the quota covers every consume row.
    expect(expectOk(await root.get('/api/log/stat?username=bob'))).toEqual({ quota: 314, rpm: 1, tpm: 1001 });
    expect(expectOk(await root.get('/api/log/stat?username=nobody'))).toEqual({ quota: 0, rpm: 0, tpm: 0 });
  });

  it('limits the self stat to own rows, ignoring username and channel', async () => {
    const own = { quota: 120, rpm: 3, tpm: 168 };
    expect(expectOk(await alice.get(`/api/log/self/stat?${WINDOW}`))).toEqual(own);
    expect(expectOk(await alice.get(`/api/log/self/stat?${WINDOW}&username=bob`))).toEqual(own);
    expect(expectOk(await alice.get(`/api/log/self/stat?${WINDOW}&channel=${channelId + 1}`))).toEqual(own);
    expect(expectOk(await alice.get(`/api/log/self/stat?${WINDOW}&token_name=other`))).toEqual({
      quota: 0,
      rpm: 1,
      tpm: 3,
    });
    expect(expectOk(await bob.get(`/api/log/self/stat?${WINDOW}`))).toEqual({
      quota: 300,
      rpm: 1,
      tpm: 1001,
    });
    expect(expectOk(await bob.get('/api/log/self/stat?type=3')).quota).toBe(-40);
  });

  it('serves the newest rows of a token to its key holder, without admin data', async () => {
    const anonymous = t.anonymous();
    const viaQuery = expectOk(await anonymous.get(`/api/log/token?key=${aliceToken.key}`));
    const viaHeader = expectOk(
      await anonymous.get('/api/log/token', { authorization: `Bearer ${aliceToken.key}` }),
    );
    expect(viaHeader).toEqual(viaQuery);
    expect(viaQuery.map((row: { quota: number }) => row.quota)).toEqual([0, 11, 12, 15]);
    for (const row of viaQuery) {
      expect(row.token_id).toBe(aliceToken.id);
      expect(row).not.toHaveProperty('channel');
      expect(row).not.toHaveProperty('channel_name');
      expect(row.ip).toBe('');
      expect(row.other).not.toContain('admin_info');
    }
    // Without the sk- prefix, and with a pinned-channel suffix, the key still names the token.
    const bare = aliceToken.key.replace(/^sk-/, '');
    expect(expectOk(await anonymous.get(`/api/log/token?key=${bare}`))).toEqual(viaQuery);
    expect(expectOk(await anonymous.get(`/api/log/token?key=${aliceToken.key}-${channelId}`))).toEqual(
      viaQuery,
    );
    const response = await anonymous.get(`/api/log/token?key=${aliceToken.key}`);
    expect(response.headers['access-control-allow-origin']).toBe('*');
    const other = expectOk(await anonymous.get(`/api/log/token?key=${aliceOtherToken.key}`));
    expect(other.map((row: { quota: number }) => row.quota)).toEqual([13]);
  });

  it('caps the token log at 100 rows', async () => {
    const token = await createToken(bob, 'busy');
    const now = nowSeconds();
    await insert(
      Array.from({ length: 130 }, (_, index) => ({
        user_id: bobId,
        username: 'bob',
        type: 2,
        token_id: token.id,
        token_name: 'busy',
        quota: index,
        created_at: now - 1000 - index,
      })),
    );
    const rows = expectOk(await t.anonymous().get(`/api/log/token?key=${token.key}`));
    expect(rows.length).toBe(100);
    expect(rows[0].quota).toBe(0);
    expect(rows[99].quota).toBe(99);
  });

  it('refuses the token log without a valid, enabled key', async () => {
    const anonymous = t.anonymous();
    expectRefused(await anonymous.get('/api/log/token'), '无效的令牌', 401);
    expectRefused(await anonymous.get('/api/log/token?key='), '无效的令牌', 401);
    expectRefused(await anonymous.get(`/api/log/token?key=sk-${'x'.repeat(48)}`), '无效的令牌', 401);
    expectRefused(await anonymous.get(`/api/log/token?key=${'k'.repeat(201)}`), undefined);
    expectRefused(
      await anonymous.get('/api/log/token', { authorization: 'Bearer sk-nope' }),
      '无效的令牌',
      401,
    );
    // A session is not a key.
    expectRefused(await alice.get('/api/log/token'), '无效的令牌', 401);

    const revoked = await createToken(alice, 'revoked');
    expect(expectOk(await anonymous.get(`/api/log/token?key=${revoked.key}`))).toEqual([]);
    expectOk(await alice.put('/api/token/?status_only=true', { id: revoked.id, status: 2 }));
    expectRefused(await anonymous.get(`/api/log/token?key=${revoked.key}`), '无效的令牌', 401);
    const deleted = await createToken(alice, 'deleted');
    expectOk(await alice.delete(`/api/token/${deleted.id}`));
    expectRefused(await anonymous.get(`/api/log/token?key=${deleted.key}`), '无效的令牌', 401);

    const preflight = await t.app.inject({ method: 'OPTIONS', url: '/api/log/token' });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-headers']).toBe('Authorization');
  });
});
