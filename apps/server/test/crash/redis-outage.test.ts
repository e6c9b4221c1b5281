import { type MockUpstream, startMockUpstream } from '@switchyard/mock-upstream';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { chat, openStream, type Payer, preparePayer } from './gateway-client.ts';
import { expectBalancedBooks, readBooks } from './ledger-checks.ts';
import { type RedisProcess, redisProcess } from './redis-process.ts';
import {
  eventually,
  freePort,
  logLines,
  type ServerProcess,
  startServer,
  stopServer,
} from './server-process.ts';

/**
 * Redis stops in the middle of a run: the node keeps serving (local rate limits and change bus,
 * quota in the database), warns once, and uses Redis again when it comes back.
 */

const START_QUOTA = 200_000;
const CHANGES = 'switchyard:changes';
const UNREACHABLE = 'Redis is unreachable';

describe('Redis outage', () => {
  let database: TestDatabase;
  let mock: MockUpstream;
  let redis: RedisProcess;
  let handle: DatabaseHandle;
  let server: ServerProcess | undefined;
  let listener: Redis | undefined;
  const heard: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    mock = await startMockUpstream();
    redis = redisProcess(await freePort());
    await redis.start();
  });
  afterAll(async () => {
    listener?.disconnect();
    await stopServer(server);
    await redis?.stop();
    await handle?.destroy();
    await mock?.close();
    await database?.drop();
  });

  const tokenStatus = (payer: Payer, status: number) =>
    payer.user.call('PUT', '/api/token/?status_only=true', { id: payer.tokenId, status });

  it('keeps serving while Redis is down, warns once, and recovers when it returns', async () => {
    server = await startServer(database.target, { REDIS_CONN_STRING: redis.url });
    handle = openDatabase(database.target);
    const payer = await preparePayer(server, mock.url, START_QUOTA);
    listener = new Redis(redis.url);
    listener.on('error', () => undefined);
    listener.on('message', (_channel: string, message: string) => heard.push(message));
    await listener.subscribe(CHANGES);

    // With Redis: calls work and changes go out on the bus.
    expect((await chat(server, payer.key, 'before the outage')).status).toBe(200);
    await payer.root.call('PUT', '/api/option/', { key: 'Notice', value: 'with redis' });
    await eventually('the option change on the Redis bus', () => heard.some((m) => m.startsWith('options')));
    expect(logLines(server, UNREACHABLE)).toHaveLength(0);

    await redis.stop();
    // Without Redis: relay calls (plain and streamed) and console changes keep working.
    for (let i = 0; i < 5; i++) {
      expect((await chat(server, payer.key, `during the outage ${i}`)).status).toBe(200);
    }
    const stream = await openStream(server, payer.key, '[[mock:chunks-10]] streamed during the outage');
    expect((await stream.finished).text).toContain('data: [DONE]');
    await payer.root.call('PUT', '/api/option/', { key: 'Notice', value: 'without redis' });
    // The local bus still drops this node's cached token when the token changes.
    await tokenStatus(payer, 2);
    expect((await chat(server, payer.key, 'disabled token')).status).toBe(401);
    await tokenStatus(payer, 1);
    expect((await chat(server, payer.key, 'enabled again')).status).toBe(200);
    await eventually('the outage warning', () => logLines(server!, UNREACHABLE).length > 0);
    expect(logLines(server, UNREACHABLE)).toHaveLength(1);

    // Redis returns (empty): the node reconnects, publishes and hears the bus again.
    await redis.start();
    await eventually('the recovery log line', () => logLines(server!, 'Redis is reachable again').length > 0);
    heard.length = 0;
    await eventually(
      'an option change on the Redis bus after recovery',
      async () => {
        await payer.root.call('PUT', '/api/option/', { key: 'Notice', value: `back ${Date.now()}` });
        await new Promise((resolve) => setTimeout(resolve, 100));
        return heard.some((m) => m.startsWith('options'));
      },
      15_000,
    );
    // A change announced by another node (here: the test) reaches this node's token cache.
    await handle.db.updateTable('tokens').set({ status: 2 }).where('id', '=', payer.tokenId).execute();
    expect((await chat(server, payer.key, 'cached token still served')).status).toBe(200);
    const publisher = new Redis(redis.url);
    await publisher.publish(CHANGES, `tokens:${payer.tokenId}`);
    publisher.disconnect();
    let servedMeanwhile = 0;
    await eventually('the token change heard from Redis', async () => {
      const status = (await chat(server!, payer.key, 'after the bus message')).status;
      if (status === 200) servedMeanwhile += 1;
      return status === 401;
    });
    expect(logLines(server, UNREACHABLE)).toHaveLength(1);

    // No warning per reconnect attempt: this one, plus at most the readiness probe's own first failure.
    const refused = server
      .output()
      .split('\n')
      .filter((line) => line.includes('"level":40') && line.includes('ECONNREFUSED'));
    expect(refused.length).toBeLessThanOrEqual(2);
    // Quota stayed in the database throughout: every call is billed and logged.
    const billed = 9 + servedMeanwhile;
    await eventually(
      'every consume log',
      async () => (await readBooks(handle, payer)).consume.length === billed,
    );
    await expectBalancedBooks(handle, payer, START_QUOTA);
  }, 90_000);
});
