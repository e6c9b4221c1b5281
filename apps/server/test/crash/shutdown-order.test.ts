import { type MockUpstream, startMockUpstream } from '@switchyard/mock-upstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { chatBody, openStream, type Payer, preparePayer, streamedContent } from './gateway-client.ts';
import { expectBalancedBooks, FAST_LEDGER_ENV, readBooks, readJournal } from './ledger-checks.ts';
import { eventually, logLines, type ServerProcess, startServer, stopServer } from './server-process.ts';

/**
 * SIGTERM under load writes the last settlement whatever order the subsystems registered in: a
 * real server whose settlement writer never writes on its own (no timer, batches of 1,000) gets
 * SIGTERM while calls and streams run (one stream is cut at SHUTDOWN_TIMEOUT_MS and settles after
 * its connection is gone); after it exits, every call it answered has its consume log row and
 * counters, the ledger is empty and its node row is gone. The second run keeps the registrations
 * in reverse order (LIFECYCLE_REVERSE_REGISTRATIONS) and closes in the same order.
 */

/** Below 100× a call's reservation (about 2,500), so every call really reserves. */
const START_QUOTA = 200_000;
/**
 * What settlements leave for the settlement writer waits until shutdown: settled rows on
 * PostgreSQL and MySQL, consume rows in the log journal on SQLite (which settles in place, ADR-45).
 */
const NO_FLUSH = { SETTLEMENT_FLUSH_MS: '3600000', SETTLEMENT_BATCH_SIZE: '1000' };
const CALLERS = 6;
const STREAMS = 3;

/** A non-stream call answered after 300 ms: several are always mid-call. */
async function slowCall(server: ServerProcess, key: string, n: number) {
  try {
    const response = await fetch(`${server.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify(chatBody(`[[mock:slow-first-byte-300]] call ${n}`, false)),
    });
    const body = await response.text();
    return { status: response.status, requestId: response.headers.get('x-oneapi-request-id') ?? '', body };
  } catch {
    return { status: 0, requestId: '', body: '' };
  }
}

/** Callers that call again as soon as answered, until the server refuses (503 or no listener). */
function startLoad(server: ServerProcess, key: string) {
  const answered: string[] = [];
  let n = 0;
  const callers = Array.from({ length: CALLERS }, async () => {
    for (;;) {
      const reply = await slowCall(server, key, n++);
      if (reply.status !== 200) return;
      expect(reply.body).toContain('"usage"');
      answered.push(reply.requestId);
    }
  });
  return { answered, done: Promise.all(callers) };
}

describe('crash safety: the last settlement on SIGTERM, whatever the registration order', () => {
  let database: TestDatabase;
  let mock: MockUpstream;
  let handle: DatabaseHandle;
  let payer: Payer | undefined;
  const servers: ServerProcess[] = [];
  const closeOrders: unknown[] = [];

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

  it.each([
    ['as registered', {}],
    ['reversed', { LIFECYCLE_REVERSE_REGISTRATIONS: 'true' }],
  ])(
    'registrations %s: every answered call is logged and counted after SIGTERM mid-call',
    async (_, hook) => {
      const server = await startServer(database.target, {
        ...FAST_LEDGER_ENV,
        ...NO_FLUSH,
        ...hook,
        SHUTDOWN_TIMEOUT_MS: '4000',
      });
      servers.push(server);
      handle ??= openDatabase(database.target);
      payer ??= await preparePayer(server, mock.url, START_QUOTA);
      const key = payer.key;
      const before = await readBooks(handle, payer);

      const load = startLoad(server, key);
      const streams = await Promise.all(
        Array.from({ length: STREAMS }, (_, n) =>
          openStream(server, key, `[[mock:slow-stream-100,chunks-20]] stream ${n}`),
        ),
      );
      // Still running when the shutdown timeout cuts it: it settles after its connection is gone.
      const cut = await openStream(server, key, '[[mock:slow-stream-200,chunks-60]] cut at the timeout');
      await Promise.all([...streams, cut].map((stream) => stream.started));
      if (handle.kind === 'sqlite') {
        // Settled in place: counted at once, the consume rows wait in the log journal.
        await eventually('20 consume rows waiting in the log journal', async () => {
          return (await readJournal(handle, payer!.userId)).length >= 20;
        });
      } else {
        // Settled calls wait in the writer: nothing of this run is logged or counted yet.
        await eventually('20 settled calls waiting for their batch', async () => {
          const books = await readBooks(handle, payer!);
          return books.open.filter((row) => row.state === 'settled').length >= 20;
        });
        const waiting = await readBooks(handle, payer);
        expect(waiting.consume).toHaveLength(before.consume.length);
        expect(waiting.requestCount).toBe(before.requestCount);
      }

      server.kill('SIGTERM');
      await load.done;
      const ends = await Promise.all(streams.map((stream) => stream.finished));
      for (const end of ends) expect(streamedContent(end.text).trim().split(/\s+/)).toHaveLength(20);
      expect((await cut.finished).text).not.toContain('[DONE]');
      expect(await server.exited).toEqual({ code: 0, signal: null });

      // No other process runs: what is in the database now is what this shutdown wrote.
      const books = await expectBalancedBooks(handle, payer, START_QUOTA);
      // The last journal move went into logs before the database closed.
      expect(await readJournal(handle, payer.userId)).toEqual([]);
      const logged = books.consume
        .slice(before.consume.length)
        .map((log) => JSON.parse(log.other!).request_id);
      const answered = [...load.answered, ...[...streams, cut].map((stream) => stream.requestId)];
      expect(answered.length).toBeGreaterThan(20 + STREAMS + 1);
      expect([...logged].sort()).toEqual([...answered].sort());
      expect(books.requestCount).toBe(before.requestCount + answered.length);
      const channel = await handle.db
        .selectFrom('channels')
        .select('used_quota')
        .where('id', '=', payer.channelId)
        .executeTakeFirstOrThrow();
      expect(Number(channel.used_quota)).toBe(books.loggedQuota);
      expect(await handle.db.selectFrom('node_instances').select('id').execute()).toEqual([]);

      const [closing] = logLines(server, 'closing subsystems');
      const order = closing?.order as string[];
      const at = (name: string) => order.indexOf(name);
      const moneyPath = ['relay', 'ledger', 'settlement-writer', 'node-instance', 'databases'].map(at);
      expect(moneyPath).toEqual([...moneyPath].sort((a, b) => a - b));
      expect(moneyPath[0]).toBeGreaterThanOrEqual(0);
      expect(order.at(-1)).toBe('databases');
      closeOrders.push(order);
      if (closeOrders.length === 2) {
        expect(closeOrders[1]).toEqual(closeOrders[0]);
        const registered = logLines(servers[0]!, 'closing subsystems')[0]?.registered as string[];
        expect(closing?.registered).toEqual([...registered].reverse());
      }
    },
    150_000,
  );
});
