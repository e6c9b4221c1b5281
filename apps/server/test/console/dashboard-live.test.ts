import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';
import { buildPeerApp, createUser, expectOk, ROOT_PASSWORD } from './console-support.ts';

// The dashboard's current period: increments a node has recorded but not yet flushed are in its
// answers at once, counted once after the flush; quota_data_models keeps quota_data's per-model
// sums through concurrent flushes of two nodes.

const HOUR = 3600;
const hourOf = (seconds: number) => seconds - (seconds % HOUR);

describe('dashboard data before and after the flush', () => {
  let t: TestApp;
  let peer: FastifyInstance;
  let root: ConsoleClient;
  let carol: ConsoleClient;
  let carolId: number;

  beforeAll(async () => {
    t = await buildTestApp();
    peer = await buildPeerApp(t.database.target);
    root = await t.login('root', ROOT_PASSWORD);
    carolId = await createUser(root, 'carol');
    carol = await t.login('carol', 'password123');
  });
  afterAll(async () => {
    await peer.close();
    await t.close();
  });

  it('shows the unflushed current hour on this node, and the same figures once flushed', async () => {
    const now = Math.floor(Date.now() / 1000);
    const hour = hourOf(now);
    const recorder = t.app.services.quotaData;
    recorder.record({
      userId: carolId,
      username: 'carol',
      modelName: 'live-model',
      quota: 40,
      tokenUsed: 4,
      at: now,
    });
    recorder.record({
      userId: carolId,
      username: 'carol',
      modelName: 'live-model',
      quota: 2,
      tokenUsed: 1,
      at: now,
    });
    const range = `start_timestamp=${hour - HOUR}&end_timestamp=${now + 10}`;
    const read = async () => ({
      self: expectOk(await carol.get(`/api/data/self?${range}`)).filter(
        (row: { model_name: string }) => row.model_name === 'live-model',
      ),
      byName: expectOk(await root.get(`/api/data/?${range}&username=carol`)).filter(
        (row: { model_name: string }) => row.model_name === 'live-model',
      ),
      all: expectOk(await root.get(`/api/data/?${range}`)).filter(
        (row: { model_name: string }) => row.model_name === 'live-model',
      ),
    });
    const before = await read();
    const figures = { model_name: 'live-model', created_at: hour, count: 2, quota: 42, token_used: 5 };
    expect(before.self).toEqual([{ id: 0, user_id: carolId, username: 'carol', ...figures }]);
    expect(before.byName).toEqual(before.self);
    expect(before.all).toEqual([{ id: 0, user_id: 0, username: '', ...figures }]);
    await recorder.flush();
    const after = await read();
    expect(after.self).toEqual([{ id: expect.any(Number), user_id: carolId, username: 'carol', ...figures }]);
    expect(after.self[0].id).toBeGreaterThan(0);
    expect(after.all).toEqual(before.all);
    // A second call before the next flush adds to the written row.
    recorder.record({
      userId: carolId,
      username: 'carol',
      modelName: 'live-model',
      quota: 8,
      tokenUsed: 0,
      at: now,
    });
    expect((await read()).self).toEqual([{ ...after.self[0], count: 3, quota: 50 }]);
    await recorder.flush();
  });

  it('keeps the per-model sums equal to quota_data through concurrent flushes of two nodes', async () => {
    const base = hourOf(1_700_500_000);
    for (let round = 0; round < 4; round++) {
      for (const [index, recorder] of [t.app.services.quotaData, peer.services.quotaData].entries()) {
        for (let user = 0; user < 6; user++) {
          for (const model of ['sum-a', 'sum-b']) {
            recorder.record({
              userId: 9500 + user,
              username: `s${user}`,
              modelName: model,
              quota: 1 + user + index,
              tokenUsed: 2,
              at: base + (user % 3) * HOUR + round,
            });
          }
        }
      }
      await Promise.all([t.app.services.quotaData.flush(), peer.services.quotaData.flush()]);
    }
    const db = t.app.services.database.db;
    const fromBuckets = await db
      .selectFrom('quota_data')
      .select((eb) => [
        'model_name',
        'created_at',
        eb.fn.sum<number | string>('count').as('count'),
        eb.fn.sum<number | string>('quota').as('quota'),
        eb.fn.sum<number | string>('token_used').as('token_used'),
      ])
      .where('model_name', 'like', 'sum-%')
      .groupBy(['model_name', 'created_at'])
      .orderBy('created_at')
      .orderBy('model_name')
      .execute();
    const served = expectOk(
      await root.get(`/api/data/?start_timestamp=${base}&end_timestamp=${base + 3 * HOUR}`),
    );
    expect(served.filter((row: { model_name: string }) => row.model_name.startsWith('sum-'))).toEqual(
      fromBuckets.map((row) => ({
        id: 0,
        user_id: 0,
        username: '',
        model_name: row.model_name,
        created_at: Number(row.created_at),
        count: Number(row.count),
        quota: Number(row.quota),
        token_used: Number(row.token_used),
      })),
    );
    expect(fromBuckets.reduce((n, row) => n + Number(row.count), 0)).toBe(4 * 2 * 6 * 2);
  });
});
