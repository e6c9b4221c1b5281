import { type MockUpstream, startMockUpstream } from '@switchyard/mock-upstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope } from '../helper.ts';
import { eventually } from '../relay/relay-support.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { type GatewayNode, rootClient, startNode } from './scale-support.ts';

/**
 * NODE_TYPE: only the master migrates and runs the background loops (channel tests and balance
 * updates, drawing/music task polling); a slave serves traffic only. The dashboard recorder and
 * the log writer run on every node on purpose: each flushes only what its own calls produced.
 */

const sunoFetches = (mock: MockUpstream) => mock.requests.filter((request) => request.path === '/suno/fetch');

describe('node roles', () => {
  let mock: MockUpstream;
  let database: TestDatabase;
  const open: GatewayNode[] = [];
  const start = async (nodeType: 'master' | 'slave', logLines?: string[]) => {
    const node = await startNode(
      nodeType,
      database.target,
      // One poll round per second, so the test can tell a polling node from a quiet one.
      { NODE_TYPE: nodeType, CHANNEL_TEST_FREQUENCY: '5', TASK_POLL_INTERVAL: '1' },
      logLines,
    );
    open.push(node);
    return node;
  };
  const stop = async (node: GatewayNode) => {
    open.splice(open.indexOf(node), 1);
    await node.close();
  };

  beforeAll(async () => {
    mock = await startMockUpstream();
    database = await createTestDatabase();
  });
  afterAll(async () => {
    for (const node of open.reverse()) await node.close();
    await mock?.close();
    await database?.drop();
  });

  it('does not migrate on a slave: a slave on an empty database refuses to start', async () => {
    const empty = await createTestDatabase();
    try {
      await expect(startNode('slave', empty.target, { NODE_TYPE: 'slave' })).rejects.toThrow(
        /no such table|does not exist|doesn't exist/,
      );
    } finally {
      await empty.drop();
    }
  });

  it('runs the periodic channel tests and the task poller on the master only', async () => {
    const masterLog: string[] = [];
    const slaveLog: string[] = [];
    const master = await start('master', masterLog);
    const root = await rootClient(master.app!);
    const channel = envelope(
      await root.post('/api/channel/', {
        name: 'suno',
        type: 36,
        key: 'suno-key',
        base_url: `${mock.url}/__mock/task-step-5000`,
        models: 'suno_music',
        group: 'default',
      }),
    );
    expect(channel.success).toBe(true);
    const token = envelope(
      await root.post('/api/token/', {
        name: 'roles',
        expired_time: -1,
        remain_quota: 0,
        unlimited_quota: true,
      }),
    );
    expect(token.success).toBe(true);
    const slave = await start('slave', slaveLog);

    expect(masterLog.some((line) => line.includes('periodic channel tests on'))).toBe(true);
    expect(slaveLog.some((line) => line.includes('periodic channel tests on'))).toBe(false);

    // Only the slave is left: a music task submitted through it is never polled.
    await stop(master);
    const submitted = await fetch(`${slave.url}/suno/submit/music`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.data[0].key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'a quiet song', title: 'Quiet' }),
    });
    expect(submitted.status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 2500));
    expect(sunoFetches(mock)).toHaveLength(0);

    // A master comes back: it picks the unfinished task up within a few rounds.
    await start('master');
    await eventually(
      async () => sunoFetches(mock).length,
      (count) => count > 0,
      5000,
    );
  }, 60_000);
});
