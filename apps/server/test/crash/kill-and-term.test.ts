import { type MockUpstream, startMockUpstream } from '@switchyard/mock-upstream';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { chat, openStream, type Payer, preparePayer, streamedContent } from './gateway-client.ts';
import { expectBalancedBooks, FAST_LEDGER_ENV, readBooks, waitForEmptyLedger } from './ledger-checks.ts';
import { eventually, logLines, type ServerProcess, startServer, stopServer } from './server-process.ts';

/**
 * The real server process: kill -9 in the middle of a stream, then the next start gives the
 * reservation back exactly once; then SIGTERM during streams lets them finish (or cuts them at
 * SHUTDOWN_TIMEOUT_MS), bills every one and exits 0. One database and two processes in turn.
 */

// Timeouts below are generous: one process start takes 5–10 s on a busy machine.
const START_QUOTA = 50_000;
const SHUTDOWN_TIMEOUT_MS = 4000;

describe('crash safety: SIGKILL and SIGTERM', () => {
  let database: TestDatabase;
  let mock: MockUpstream;
  let handle: DatabaseHandle;
  let server: ServerProcess | undefined;
  let payer: Payer;

  beforeAll(async () => {
    database = await createTestDatabase();
    mock = await startMockUpstream();
  });
  afterAll(async () => {
    await stopServer(server);
    await handle?.destroy();
    await mock?.close();
    await database?.drop();
  });

  it('refunds the killed stream and settles a logged call at the next start', async () => {
    server = await startServer(database.target, FAST_LEDGER_ENV);
    handle = openDatabase(database.target);
    payer = await preparePayer(server, mock.url, START_QUOTA);

    // One finished call, billed and logged before the crash.
    const done = await chat(server, payer.key, 'a finished call');
    expect(done.status).toBe(200);
    await eventually('the consume log of the finished call', async () => {
      const books = await readBooks(handle, payer);
      return books.consume.length === 1 && books.open.length === 0;
    });
    const beforeStream = await readBooks(handle, payer);

    // A 10-second stream: the reservation is in the ledger while it runs.
    const stream = await openStream(server, payer.key, '[[mock:slow-stream-200,chunks-50]] never finishes');
    expect(stream.status).toBe(200);
    await stream.started;
    const during = await readBooks(handle, payer);
    expect(during.open).toHaveLength(1);
    const reservation = during.open[0]!;
    expect(reservation.request_id).toBe(stream.requestId);
    expect(Number(reservation.amount)).toBeGreaterThan(1000);
    expect(during.quota).toBe(beforeStream.quota - Number(reservation.amount));
    expect(during.tokenRemain).toBe(beforeStream.tokenRemain - Number(reservation.amount));

    server.kill('SIGKILL');
    expect((await server.exited).signal).toBe('SIGKILL');
    const cut = await stream.finished;
    expect(cut.text).not.toContain('[DONE]');

    // Nothing moved while the node was down: the reservation is still held.
    const afterKill = await readBooks(handle, payer);
    expect(afterKill.open).toHaveLength(1);
    expect(afterKill.quota).toBe(during.quota);

    // A second open reservation whose request did write its consume log (a settlement that died
    // between the log and its own transaction): reconciliation settles it at the logged quota.
    const held = 3000;
    const logged = 1234;
    await handle.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set({ quota: sql`quota - ${held}` })
        .where('id', '=', payer.userId)
        .execute();
      await trx
        .updateTable('tokens')
        .set({ remain_quota: sql`remain_quota - ${held}` })
        .where('id', '=', payer.tokenId)
        .execute();
      await trx
        .insertInto('reservations')
        .values({
          id: 'logged-before-crash',
          request_id: 'req-logged-before-crash',
          user_id: payer.userId,
          token_id: payer.tokenId,
          token_limited: 1,
          amount: held,
          created_at: Date.now() - 5000,
        })
        .execute();
      await trx
        .insertInto('logs')
        .values({
          type: 2,
          user_id: payer.userId,
          username: 'payer',
          token_id: payer.tokenId,
          channel_id: payer.channelId,
          model_name: 'gpt-4o',
          quota: logged,
          created_at: Math.floor(Date.now() / 1000),
          content: 'consume row written before the crash',
          other: JSON.stringify({ request_id: 'req-logged-before-crash' }),
        })
        .execute();
    });

    server = await startServer(database.target, {
      ...FAST_LEDGER_ENV,
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    });
    // The legacy row (no instance id) is reconciled at start; the killed process's own row as
    // soon as its heartbeat is older than NODE_DEAD_AFTER_MS (at start, or by the master's sweep).
    await waitForEmptyLedger(handle);
    const books = await expectBalancedBooks(handle, payer, START_QUOTA);
    // Refunded in full: the killed stream costs nothing; the logged call costs what it logged.
    expect(books.loggedQuota).toBe(beforeStream.loggedQuota + logged);
    expect(books.requestCount).toBe(beforeStream.requestCount + 1);
    const channel = await handle.db
      .selectFrom('channels')
      .select('used_quota')
      .where('id', '=', payer.channelId)
      .executeTakeFirstOrThrow();
    expect(Number(channel.used_quota)).toBe(books.loggedQuota);

    const reconciled = books.system.map((log) => ({
      quota: Number(log.quota),
      other: JSON.parse(log.other!),
    }));
    expect(reconciled).toHaveLength(2);
    expect(reconciled).toContainEqual({
      quota: Number(reservation.amount),
      other: expect.objectContaining({
        request_id: stream.requestId,
        reserved_quota: Number(reservation.amount),
        reconciled: 'refunded',
      }),
    });
    expect(reconciled).toContainEqual({
      quota: 0,
      other: expect.objectContaining({
        request_id: 'req-logged-before-crash',
        reconciled: 'settled',
        charged_quota: logged,
      }),
    });
    expect(books.system.find((log) => log.other?.includes(stream.requestId))?.content).toContain(
      stream.requestId,
    );

    // The restarted node bills as usual, and the books still balance.
    expect((await chat(server, payer.key, 'after the restart')).status).toBe(200);
    await eventually('the consume log after the restart', async () => {
      const after = await readBooks(handle, payer);
      return after.consume.length === books.consume.length + 1 && after.open.length === 0;
    });
    await expectBalancedBooks(handle, payer, START_QUOTA);
  }, 120_000);

  it('SIGTERM: refuses new calls, lets streams finish or cuts them at the timeout, bills all, exits 0', async () => {
    const running = server!;
    const before = await readBooks(handle, payer);
    const streams = await Promise.all(
      [1, 2, 3].map((n) => openStream(running, payer.key, `[[mock:slow-stream-100,chunks-20]] stream ${n}`)),
    );
    // 60 chunks 200 ms apart: still running when the shutdown timeout strikes.
    const long = await openStream(running, payer.key, '[[mock:slow-stream-200,chunks-60]] too long');
    await Promise.all([...streams, long].map((stream) => stream.started));
    expect((await readBooks(handle, payer)).open).toHaveLength(4);

    running.kill('SIGTERM');
    // No new calls: the listener is closed (connection refused) or the server answers 503.
    await eventually('new requests to be refused', async () => {
      try {
        const response = await fetch(`${running.baseUrl}/api/status`, { headers: { connection: 'close' } });
        return response.status === 503;
      } catch {
        return true;
      }
    });
    const ends = await Promise.all(streams.map((stream) => stream.finished));
    for (const end of ends) {
      expect(end.error).toBeUndefined();
      expect(end.text).toContain('data: [DONE]');
      expect(streamedContent(end.text).trim().split(/\s+/)).toHaveLength(20);
    }
    const cut = await long.finished;
    expect(cut.text).not.toContain('[DONE]');
    expect(streamedContent(cut.text).length).toBeGreaterThan(0);
    expect(await running.exited).toEqual({ code: 0, signal: null });
    expect(logLines(running, 'shutdown timeout reached')).toHaveLength(1);
    expect(logLines(running, 'shutdown complete')).toHaveLength(1);

    // Every stream, the cut one included, was settled and logged before the process exited.
    const books = await expectBalancedBooks(handle, payer, START_QUOTA);
    const newLogs = books.consume.slice(before.consume.length);
    expect(newLogs.map((log) => JSON.parse(log.other!).request_id).sort()).toEqual(
      [...streams, long].map((stream) => stream.requestId).sort(),
    );
    const cutLog = newLogs.find((log) => log.other?.includes(long.requestId))!;
    expect(Number(cutLog.quota)).toBeGreaterThan(0);
    expect(books.requestCount).toBe(before.requestCount + 4);
  }, 60_000);
});
