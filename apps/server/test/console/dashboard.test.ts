import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.ts';
import { QuotaDataRecorder } from '../../src/logs/quota-data-recorder.ts';
import { QuotaDataRepository } from '../../src/logs/quota-data-repository.ts';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';
import { eventually } from '../relay/relay-support.ts';
import { buildPeerApp, createUser, expectOk, expectRefused, ROOT_PASSWORD } from './console-support.ts';

// Dashboard data: the quota_data recorder (in-memory buckets, additive UPSERT flushes that two
// nodes may run at once), its timer and shutdown flush, and GET /api/data/ and /api/data/self.
// Relay calls feeding it are in logs-relay.test.ts.

const HOUR = 3600;
const silentLog = { warn: () => undefined };
const nowSeconds = () => Math.floor(Date.now() / 1000);
const hourOf = (seconds: number) => seconds - (seconds % HOUR);

describe('dashboard data', () => {
  let t: TestApp;
  let peer: FastifyInstance;
  let root: ConsoleClient;
  let alice: ConsoleClient;
  let bob: ConsoleClient;
  let aliceId: number;
  let bobId: number;

  const rows = () =>
    t.app.services.database.db
      .selectFrom('quota_data')
      .selectAll()
      .orderBy('user_id')
      .orderBy('model_name')
      .orderBy('created_at')
      .execute();

  beforeAll(async () => {
    t = await buildTestApp();
    peer = await buildPeerApp(t.database.target);
    root = await t.login('root', ROOT_PASSWORD);
    aliceId = await createUser(root, 'alice');
    bobId = await createUser(root, 'bob');
    alice = await t.login('alice', 'password123');
    bob = await t.login('bob', 'password123');
  });
  afterAll(async () => {
    await peer.close();
    await t.close();
  });

  it('adds concurrent flushes of several nodes into one row per bucket', async () => {
    const base = hourOf(1_700_000_000);
    const recorders = [
      t.app.services.quotaData,
      peer.services.quotaData,
      new QuotaDataRecorder(new QuotaDataRepository(t.app.services.database), silentLog),
      new QuotaDataRecorder(new QuotaDataRepository(peer.services.database), silentLog),
    ];
    const users = [9001, 9002, 9003];
    const models = ['m-a', 'm-b', 'm-c'];
    const hours = [base, base + HOUR];
    const rounds = 5;
    for (let round = 0; round < rounds; round++) {
      for (const [index, recorder] of recorders.entries()) {
        // Each recorder walks the buckets in its own order so concurrent statements overlap.
        const order = index % 2 === 0 ? users : [...users].reverse();
        for (const userId of order) {
          for (const modelName of models) {
            for (const hour of hours) {
              recorder.record({
                userId,
                username: `u${userId}`,
                modelName,
                quota: 10,
                tokenUsed: 3,
                at: hour + 17 + round,
              });
              recorder.record({
                userId,
                username: `u${userId}`,
                modelName,
                quota: 1,
                tokenUsed: 1,
                at: hour + 1800,
              });
            }
          }
        }
      }
      await Promise.all(recorders.map((recorder) => recorder.flush()));
    }
    for (const recorder of recorders) expect(recorder.pending).toBe(0);
    const stored = (await rows()).filter((row) => Number(row.user_id) > 9000);
    expect(stored.length).toBe(users.length * models.length * hours.length);
    const perBucket = rounds * recorders.length;
    for (const row of stored) {
      expect(hours).toContain(Number(row.created_at));
      expect(Number(row.count)).toBe(perBucket * 2);
      expect(Number(row.quota)).toBe(perBucket * 11);
      expect(Number(row.token_used)).toBe(perBucket * 4);
      expect(row.username).toBe(`u${row.user_id}`);
    }
  });

  it('keeps increments recorded while a flush runs, and merges a bucket recorded twice', async () => {
    const recorder = new QuotaDataRecorder(new QuotaDataRepository(t.app.services.database), silentLog);
    const at = hourOf(1_700_100_000);
    recorder.record({ userId: 9100, username: 'old-name', modelName: 'm', quota: 5, tokenUsed: 2, at });
    recorder.record({
      userId: 9100,
      username: 'new-name',
      modelName: 'm',
      quota: 7,
      tokenUsed: 3,
      at: at + 10,
    });
    expect(recorder.pending).toBe(1);
    const flushing = recorder.flush();
    recorder.record({ userId: 9100, username: 'new-name', modelName: 'm', quota: 1, tokenUsed: 1, at });
    await flushing;
    expect(recorder.pending).toBe(1);
    await recorder.flush();
    const [row] = (await rows()).filter((stored) => Number(stored.user_id) === 9100);
    expect(row).toMatchObject({ username: 'new-name', created_at: at });
    expect([Number(row!.count), Number(row!.quota), Number(row!.token_used)]).toEqual([3, 13, 6]);
  });

  it('flushes on its timer', async () => {
    const recorder = new QuotaDataRecorder(new QuotaDataRepository(t.app.services.database), silentLog);
    recorder.start(() => 0.001);
    try {
      recorder.record({ userId: 9200, username: 'timer', modelName: 'm', quota: 1, tokenUsed: 1 });
      await eventually(
        async () => (await rows()).filter((row) => Number(row.user_id) === 9200).length,
        (count) => count === 1,
      );
      expect(recorder.pending).toBe(0);
    } finally {
      await recorder.stop();
    }
  });

  it('flushes what is left when the app shuts down', async () => {
    const other = await buildTestApp();
    other.app.services.quotaData.record({
      userId: 9300,
      username: 'bye',
      modelName: 'm',
      quota: 4,
      tokenUsed: 2,
    });
    await other.app.close();
    const database = openDatabase(other.database.target);
    try {
      const stored = await database.db
        .selectFrom('quota_data')
        .selectAll()
        .where('user_id', '=', 9300)
        .execute();
      expect(stored.map((row) => [Number(row.count), Number(row.quota), Number(row.token_used)])).toEqual([
        [1, 4, 2],
      ]);
    } finally {
      await database.destroy();
      await other.database.drop();
    }
  });

  describe('GET /api/data/ and /api/data/self', () => {
    const now = nowSeconds();
    const recent = hourOf(now - 2 * HOUR);
    const earlier = recent - HOUR;
    const old = hourOf(now - 40 * 86_400);

    beforeAll(async () => {
      const recorder = t.app.services.quotaData;
      const sample = (userId: number, username: string, modelName: string, at: number, quota: number) =>
        recorder.record({ userId, username, modelName, quota, tokenUsed: quota * 2, at });
      sample(aliceId, 'alice', 'gpt-4o', recent + 5, 100);
      sample(aliceId, 'alice', 'gpt-4o', recent + 50, 50);
      sample(aliceId, 'alice', 'gpt-4o-mini', recent + 5, 10);
      sample(aliceId, 'alice', 'gpt-4o', earlier + 5, 7);
      sample(aliceId, 'alice', 'gpt-4o', old + 5, 1000);
      sample(bobId, 'bob', 'gpt-4o', recent + 5, 300);
      sample(bobId, 'bob', 'claude-3-haiku', earlier + 5, 30);
      await recorder.flush();
    });

    it('returns own buckets of the last 30 days by default, oldest first', async () => {
      const own = expectOk(await alice.get('/api/data/self'));
      expect(own).toEqual([
        {
          id: expect.any(Number),
          user_id: aliceId,
          username: 'alice',
          model_name: 'gpt-4o',
          created_at: earlier,
          count: 1,
          quota: 7,
          token_used: 14,
        },
        {
          id: expect.any(Number),
          user_id: aliceId,
          username: 'alice',
          model_name: 'gpt-4o',
          created_at: recent,
          count: 2,
          quota: 150,
          token_used: 300,
        },
        {
          id: expect.any(Number),
          user_id: aliceId,
          username: 'alice',
          model_name: 'gpt-4o-mini',
          created_at: recent,
          count: 1,
          quota: 10,
          token_used: 20,
        },
      ]);
      const bobs = expectOk(await bob.get(`/api/data/self?start_timestamp=${earlier}&end_timestamp=${now}`));
      expect(bobs.map((row: { model_name: string; quota: number }) => [row.model_name, row.quota])).toEqual([
        ['claude-3-haiku', 30],
        ['gpt-4o', 300],
      ]);
      const onlyRecent = expectOk(
        await alice.get(`/api/data/self?start_timestamp=${recent}&end_timestamp=${recent}`),
      );
      expect(onlyRecent.length).toBe(2);
      const oldOnly = expectOk(
        await alice.get(`/api/data/self?start_timestamp=${old}&end_timestamp=${old + HOUR}`),
      );
      expect(oldOnly.map((row: { quota: number }) => row.quota)).toEqual([1000]);
    });

    it('refuses self spans over 30 days', async () => {
      const thirtyDays = 2_592_000;
      expectOk(await alice.get(`/api/data/self?start_timestamp=${now - thirtyDays}&end_timestamp=${now}`));
      expectRefused(
        await alice.get(`/api/data/self?start_timestamp=${now - thirtyDays - 1}&end_timestamp=${now}`),
        '时间跨度不能超过 1 个月',
      );
      expectRefused(
        await alice.get(`/api/data/self?start_timestamp=1&end_timestamp=${now}`),
        '时间跨度不能超过 1 个月',
      );
      expect(
        expectOk(await alice.get(`/api/data/self?start_timestamp=${now}&end_timestamp=${now - 10}`)),
      ).toEqual([]);
    });

    it('sums every user per model and hour for admins, or lists one user by name', async () => {
      const all = expectOk(await root.get(`/api/data/?start_timestamp=${earlier}&end_timestamp=${now}`));
      const real = all.filter((row: { model_name: string }) => !row.model_name.startsWith('m'));
      const sum = { id: 0, user_id: 0, username: '' };
      expect(real).toEqual([
        { ...sum, model_name: 'claude-3-haiku', created_at: earlier, count: 1, quota: 30, token_used: 60 },
        { ...sum, model_name: 'gpt-4o', created_at: earlier, count: 1, quota: 7, token_used: 14 },
        { ...sum, model_name: 'gpt-4o', created_at: recent, count: 3, quota: 450, token_used: 900 },
        { ...sum, model_name: 'gpt-4o-mini', created_at: recent, count: 1, quota: 10, token_used: 20 },
      ]);
      const bobs = expectOk(
        await root.get(`/api/data/?start_timestamp=${earlier}&end_timestamp=${now}&username=bob`),
      );
      expect(bobs.map((row: { user_id: number; quota: number }) => [row.user_id, row.quota])).toEqual([
        [bobId, 30],
        [bobId, 300],
      ]);
      // The admin route has no span limit.
      const alices = expectOk(
        await root.get(`/api/data/?start_timestamp=1&end_timestamp=${now}&username=alice`),
      );
      expect(alices.map((row: { quota: number }) => row.quota)).toEqual([1000, 7, 150, 10]);
      expect(expectOk(await root.get('/api/data/?username=nobody'))).toEqual([]);
    });

    it('refuses common users on the admin route and never answers bad input with a server error', async () => {
      expectRefused(await alice.get('/api/data/'), '无权进行此操作，权限不足');
      expectRefused(await alice.get('/api/data/?username=bob'), '无权进行此操作，权限不足');
      for (const query of [
        'start_timestamp=abc',
        'end_timestamp=-1',
        'start_timestamp=1e40',
        `username=${'u'.repeat(100)}`,
        'start_timestamp=&end_timestamp=',
        'username[]=a',
      ]) {
        for (const [client, path] of [
          [root, '/api/data/'],
          [alice, '/api/data/self'],
        ] as const) {
          const response = await client.get(`${path}?${query}`);
          expect(response.statusCode, `${path}?${query}`).toBeLessThan(500);
          expect(typeof response.json().success).toBe('boolean');
        }
      }
      expect(expectOk(await alice.get('/api/data/self?start_timestamp=&end_timestamp=')).length).toBe(3);
    });
  });
});
