import { type MockUpstream, startMockUpstream } from '@switchyard/mock-upstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { chat, openStream, type Payer, preparePayer } from './gateway-client.ts';
import { expectBalancedBooks, FAST_LEDGER_ENV, readBooks, waitForEmptyLedger } from './ledger-checks.ts';
import { eventually, type ServerProcess, sleep, startServer, stopServer } from './server-process.ts';

/**
 * The ledger with real processes: a kill -9 after settlements whose batch was not written yet
 * (consume logs and counters; on SQLite, consume rows still in the log journal) loses nothing, and the master reconciles only dead processes —
 * a live slave keeps its reservation across a master restart, a killed slave's rows are closed by
 * the running master's sweep.
 */

const START_QUOTA = 60_000;
/**
 * Batches are never written by the timer: only a kill -9 or a graceful stop ends these processes.
 * On SQLite a settlement writes its counters itself and its consume log row to the log journal,
 * which the writer moves into logs only on its timer (ADR-24, ADR-35).
 */
const NO_FLUSH = { SETTLEMENT_FLUSH_MS: '3600000', SETTLEMENT_BATCH_SIZE: '1000' };

/** Consume rows in the logs table proper (not the SQLite log journal). */
async function loggedConsume(handle: DatabaseHandle, userId: number): Promise<number> {
  const rows = await handle.db
    .selectFrom('logs')
    .select('id')
    .where('user_id', '=', userId)
    .where('type', '=', 2)
    .execute();
  return rows.length;
}

async function channelUsed(handle: DatabaseHandle, channelId: number): Promise<number> {
  const row = await handle.db
    .selectFrom('channels')
    .select('used_quota')
    .where('id', '=', channelId)
    .executeTakeFirstOrThrow();
  return Number(row.used_quota);
}

describe('crash safety: settlement batches and node instances', () => {
  let database: TestDatabase;
  let mock: MockUpstream;
  let handle: DatabaseHandle;
  let payer: Payer;
  const servers: Array<ServerProcess | undefined> = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    mock = await startMockUpstream();
  });
  afterAll(async () => {
    for (const server of servers) await stopServer(server);
    await handle?.destroy();
    await mock?.close();
    await database?.drop();
  });

  it('SIGKILL between settlement and its batch: the next start writes the consume logs and counters', async () => {
    const first = await startServer(database.target, { ...FAST_LEDGER_ENV, ...NO_FLUSH });
    servers.push(first);
    handle = openDatabase(database.target);
    payer = await preparePayer(first, mock.url, START_QUOTA);
    const replies = await Promise.all([1, 2, 3].map((n) => chat(first, payer.key, `settled call ${n}`)));
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200]);
    let charged: number;
    if (handle.kind === 'sqlite') {
      // Written whole in each settlement's commit: balances and counters moved, the ledger empty,
      // the consume log rows in the journal, not yet in logs.
      await eventually('three consume rows in the journal', async () => {
        const { open, consume } = await readBooks(handle, payer);
        return open.length === 0 && consume.length === 3;
      });
      const settled = await readBooks(handle, payer);
      charged = settled.loggedQuota;
      expect(charged).toBeGreaterThan(0);
      expect(settled.quota).toBe(START_QUOTA - charged);
      expect(settled.usedQuota).toBe(charged);
      expect(settled.requestCount).toBe(3);
      expect(await loggedConsume(handle, payer.userId)).toBe(0);
      first.kill('SIGKILL');
      expect((await first.exited).signal).toBe('SIGKILL');
    } else {
      // Settled: balances moved, the rows wait for their batch with the log rows inside.
      await eventually('three settled ledger rows', async () => {
        const { open } = await readBooks(handle, payer);
        return open.length === 3 && open.every((row) => row.state === 'settled');
      });
      // Read once settled (readBooks is several statements; the settlements are done now).
      const settled = await readBooks(handle, payer);
      charged = settled.open.reduce((sum, row) => sum + Number(row.charged), 0);
      expect(charged).toBeGreaterThan(0);
      expect(settled.quota).toBe(START_QUOTA - charged);
      expect(settled.tokenRemain).toBe(START_QUOTA - charged);
      expect(settled.consume).toHaveLength(0);
      expect(settled.usedQuota).toBe(0);
      expect(settled.requestCount).toBe(0);

      first.kill('SIGKILL');
      expect((await first.exited).signal).toBe('SIGKILL');
      // The books are off while the node is down: charged, not logged, not counted.
      const down = await readBooks(handle, payer);
      expect(down.open).toHaveLength(3);
      expect(down.consume).toHaveLength(0);
    }

    const second = await startServer(database.target, FAST_LEDGER_ENV);
    servers.push(second);
    await waitForEmptyLedger(handle);
    await eventually(
      'the consume rows in logs',
      async () => (await loggedConsume(handle, payer.userId)) === 3,
    );
    const books = await expectBalancedBooks(handle, payer, START_QUOTA);
    expect(books.loggedQuota).toBe(charged);
    expect(books.consume).toHaveLength(3);
    expect(books.requestCount).toBe(3);
    expect(await channelUsed(handle, payer.channelId)).toBe(charged);
    // Written from the ledger, nothing refunded: no reconciliation system log.
    expect(books.system).toHaveLength(0);
    for (const log of books.consume) expect(JSON.parse(log.other!).request_id).toMatch(/\S/);
    second.kill('SIGTERM');
    expect(await second.exited).toEqual({ code: 0, signal: null });
  }, 120_000);

  it('a master restart leaves a live slave’s reservation alone; the running master reconciles a killed slave', async () => {
    const master = await startServer(database.target, FAST_LEDGER_ENV);
    servers.push(master);
    const slave = await startServer(database.target, { ...FAST_LEDGER_ENV, ...NO_FLUSH, NODE_TYPE: 'slave' });
    servers.push(slave);
    const before = await readBooks(handle, payer);

    // On the slave: one finished call (settled, batch not written) and one long stream (reserved).
    expect((await chat(slave, payer.key, 'finished on the slave')).status).toBe(200);
    const stream = await openStream(
      slave,
      payer.key,
      '[[mock:slow-stream-200,chunks-200]] held by the slave',
    );
    expect(stream.status).toBe(200);
    await stream.started;
    // Wait for the finished call's settlement too: readBooks reads the balance before the ledger,
    // so a settlement committing between the two reads would leave a stale balance in `held`.
    // On SQLite the finished call is written whole (no settled row, its consume row counted).
    const sqlite = handle.kind === 'sqlite';
    const states = sqlite ? ['reserved'] : ['reserved', 'settled'];
    await eventually('the slave’s ledger rows, the finished call settled', async () => {
      const { open, consume } = await readBooks(handle, payer);
      return sqlite
        ? open.length === 1 && consume.length === before.consume.length + 1
        : open.length === 2 && open.some((row) => row.state === 'settled');
    });
    const held = await readBooks(handle, payer);
    const slaveInstance = held.open[0]!.instance_id;
    expect(held.open.map((row) => row.instance_id)).toEqual(states.map(() => slaveInstance));
    expect(held.open.map((row) => row.state).sort()).toEqual(states);

    // Restart the master while the slave lives: start-up reconciliation and several sweeps pass.
    master.kill('SIGKILL');
    await master.exited;
    const restarted = await startServer(database.target, FAST_LEDGER_ENV);
    servers.push(restarted);
    await sleep(3000);
    const untouched = await readBooks(handle, payer);
    expect(untouched.open.map((row) => row.id).sort()).toEqual(held.open.map((row) => row.id).sort());
    expect(untouched.system.length).toBe(before.system.length);
    expect(untouched.quota).toBe(held.quota);

    // Kill the slave: the running master closes its rows once its heartbeat is stale, no restart.
    slave.kill('SIGKILL');
    await slave.exited;
    await waitForEmptyLedger(handle);
    const books = await expectBalancedBooks(handle, payer, START_QUOTA);
    const reserved = held.open.find((row) => row.state === 'reserved')!;
    const refunds = books.system.slice(before.system.length).map((log) => JSON.parse(log.other!));
    expect(refunds).toEqual([
      expect.objectContaining({ request_id: stream.requestId, reconciled: 'refunded' }),
    ]);
    expect(Number(books.system.at(-1)!.quota)).toBe(Number(reserved.amount));
    // The slave's finished call got its consume log and counters (from the settled row, or on
    // SQLite in its own commit).
    expect(books.consume.length).toBe(before.consume.length + 1);
    expect(books.requestCount).toBe(before.requestCount + 1);
    const cut = await stream.finished;
    expect(cut.text).not.toContain('[DONE]');
    // The dead slave's node row goes in the same pass, just after its ledger rows; the restarted
    // master's is there.
    const nodeRows = () => handle.db.selectFrom('node_instances').select(['id', 'node_type']).execute();
    await eventually('the dead slave’s node row to go', async () =>
      (await nodeRows()).every((row) => row.id !== slaveInstance),
    );
    const instances = await nodeRows();
    expect(instances.map((row) => row.id)).not.toContain(slaveInstance);
    expect(instances).toHaveLength(1);
  }, 150_000);
});
