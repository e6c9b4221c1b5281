import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, ConsoleClient, type TestApp } from '../helper.ts';
import { buildPeerApp, expectOk, ROOT_PASSWORD, setOption } from './console-support.ts';

/** Options live in memory on every node and follow changes made on another node. */

const REDIS = 'redis://127.0.0.1:6379';

async function eventually(check: () => boolean, timeoutMs: number): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    if (check()) return Date.now() - start;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`condition not met within ${timeoutMs} ms`);
}

const statusOf = async (app: FastifyInstance) =>
  expectOk(await app.inject({ method: 'GET', url: '/api/status' }));

describe('two nodes on one database, without Redis', () => {
  let a: TestApp;
  let b: FastifyInstance;
  beforeAll(async () => {
    a = await buildTestApp();
    b = await buildPeerApp(a.database.target);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('sees an option written on node A after reload()', async () => {
    const root = await a.login('root', ROOT_PASSWORD);
    await setOption(root, 'SystemName', 'Node A name');
    await setOption(root, 'QuotaPerUnit', 250000);
    expect((await statusOf(a.app)).system_name).toBe('Node A name');
    // No bus between the nodes: B keeps its copy until it reloads.
    expect((await statusOf(b)).system_name).toBe('Switchyard');
    expect(b.services.options.get('SystemName')).toBe('Switchyard');
    await b.services.options.reload();
    expect(await statusOf(b)).toMatchObject({ system_name: 'Node A name', quota_per_unit: 250000 });
  });

  it('accepts on node B a session made on node A, and the reverse', async () => {
    const onA = await a.login('root', ROOT_PASSWORD);
    const onB = new ConsoleClient(b, onA.cookie, onA.userId);
    expect(expectOk(await onB.get('/api/user/self')).username).toBe('root');
    await setOption(onB, 'Notice', 'written on B');
    await a.app.services.options.reload();
    expect(expectOk(await a.anonymous().get('/api/notice'))).toBe('written on B');
  });
});

describe('two nodes with Redis', () => {
  let a: TestApp;
  let b: FastifyInstance;
  let root: ConsoleClient;
  beforeAll(async () => {
    a = await buildTestApp({ REDIS_CONN_STRING: REDIS });
    b = await buildPeerApp(a.database.target, { REDIS_CONN_STRING: REDIS });
    root = await a.login('root', ROOT_PASSWORD);
    // Wait until B's subscription is live (it connects in the background), using another option.
    let round = 0;
    await eventually(() => {
      round += 1;
      if (round % 10 === 1) void setOption(root, 'About', `warm-up ${round}`);
      return b.services.options.get('About').startsWith('warm-up');
    }, 5000);
  });
  afterAll(async () => {
    await b.close();
    await a.close();
  });

  it('brings a change made on A to B without reload, within 2 s', async () => {
    const name = `Redis ${Date.now()}`;
    await setOption(root, 'SystemName', name);
    const elapsed = await eventually(() => b.services.options.get('SystemName') === name, 2000);
    expect(elapsed).toBeLessThan(2000);
    expect((await statusOf(b)).system_name).toBe(name);
  });

  it('brings changes made on B back to A, including resets', async () => {
    const onB = new ConsoleClient(b, root.cookie, root.userId);
    await setOption(onB, 'ModelRatio', '{"sync-model":2}');
    await eventually(() => a.app.services.options.get('ModelRatio') === '{"sync-model":2}', 2000);
    expectOk(await onB.post('/api/option/rest_model_ratio'));
    await eventually(
      () => a.app.services.options.getJson<Record<string, number>>('ModelRatio')['gpt-4o'] !== undefined,
      2000,
    );
  });
});
