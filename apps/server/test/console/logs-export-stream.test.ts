import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readChannelNames } from '../../src/console/logs/channel-names.ts';
import { LOG_EXPORT_BATCH_ROWS, openLogCsv } from '../../src/console/logs/export/log-csv-stream.ts';
import { LogKeysetReader } from '../../src/db/repositories/log-keyset-reader.ts';
import type { LogFilter, NewLog } from '../../src/db/repositories/log-repository.ts';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';
import { csvObjects, parseCsv } from '../support/parse-csv.ts';
import { expectRefused, ROOT_PASSWORD } from './console-support.ts';

// GET /api/log/export on a large table, over a real socket: the rows are read in bounded keyset
// batches as the client takes the text (so memory stays at about one batch), the file arrives in
// many chunks, and a client that leaves stops the reading. Field contents and filters are in
// logs-export.test.ts. On SQLite only (vitest.config.ts): the reader's SQL on each database is
// log-keyset-reader.test.ts.

/** Rows in the table: a hundred batches. */
const ROWS = 100 * LOG_EXPORT_BATCH_ROWS;
const T0 = 1_600_000_000;
/** Three rows per second, so batch boundaries fall inside runs of equal created_at. */
const createdAtOf = (index: number) => T0 + Math.floor(index / 3);
const BOM = '\uFEFF';
/**
 * Text that makes each record about 600 bytes: what the kernel's socket buffers hold (a few MB)
 * is then a small part of the file, so rows read before a client leaves stay well below the total.
 */
const PADDING = '日志'.repeat(100) + 'x'.repeat(100);

/** A source around the real reader that records the size of each batch it is asked for and answers. */
function countingSource(t: TestApp) {
  const reader = new LogKeysetReader(t.app.services.logDatabase.db);
  const batches: number[] = [];
  return {
    batches,
    source: {
      reader: {
        batch: async (...args: Parameters<LogKeysetReader['batch']>) => {
          const rows = await reader.batch(...args);
          batches.push(rows.length);
          return rows;
        },
      },
      channelNames: (ids: number[]) => readChannelNames(t.app.services.database.db, ids),
    },
  };
}

describe('log export: a large table streamed in batches', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let baseUrl: string;
  const filter: LogFilter = { start: T0, end: T0 + ROWS };

  /** A value of /metrics (0 when absent). */
  const metric = async (name: string) => {
    const text = (await t.app.inject({ method: 'GET', url: '/metrics' })).body;
    const line = text.split('\n').find((entry) => entry.startsWith(`${name} `));
    return Number(line?.split(' ')[1] ?? 0);
  };

  /** Starts an export over the socket; resolves with the response once its headers arrive. */
  const startDownload = (query: string) =>
    new Promise<{ response: IncomingMessage; abort: () => void }>((resolve, reject) => {
      const request = httpRequest(`${baseUrl}/api/log/export?${query}`, {
        headers: { cookie: root.cookie ?? '', 'new-api-user': String(root.userId) },
      });
      request.on('response', (response) => resolve({ response, abort: () => request.destroy() }));
      request.on('error', reject);
      request.end();
    });

  beforeAll(async () => {
    t = await buildTestApp();
    root = await t.login('root', ROOT_PASSWORD);
    const rows: NewLog[] = [];
    for (let index = 0; index < ROWS; index++) {
      rows.push({
        type: 2,
        user_id: 1 + (index % 7),
        username: `user${index % 7}`,
        token_name: `token-${index % 11}`,
        model_name: index % 2 === 0 ? 'gpt-4o-mini' : 'claude-3-haiku',
        quota: index,
        prompt_tokens: 100,
        completion_tokens: 20,
        content: `row ${index}, "quoted" ${PADDING}`,
        other: `{"request_id":"req-${index}"}`,
        created_at: createdAtOf(index),
      });
      if (rows.length === 500) await t.app.services.logs.insertMany(rows.splice(0));
    }
    await t.app.services.logs.insertMany(rows);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    baseUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  }, 300_000);
  afterAll(async () => t?.close());

  it('reads the whole table in full batches of at most 1,000 rows, each asked for once', async () => {
    const { batches, source } = countingSource(t);
    const stream = await openLogCsv(source, { filter, utcOffsetMinutes: 0 });
    let chunks = 0;
    let bytes = 0;
    for await (const chunk of stream) {
      chunks += 1;
      bytes += (chunk as Buffer).length;
    }
    expect(batches.length).toBe(ROWS / LOG_EXPORT_BATCH_ROWS + 1);
    expect(batches.slice(0, -1).every((size) => size === LOG_EXPORT_BATCH_ROWS)).toBe(true);
    expect(batches.at(-1)).toBe(0);
    // One chunk per batch: no chunk holds more than one batch's text.
    expect(chunks).toBe(ROWS / LOG_EXPORT_BATCH_ROWS);
    expect(bytes).toBeGreaterThan(ROWS * PADDING.length);
  }, 120_000);

  it('reads no further than the consumer: a paused reader holds the query loop', async () => {
    const { batches, source } = countingSource(t);
    const stream = await openLogCsv(source, { filter, utcOffsetMinutes: 0 });
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).done).toBe(false);
    // The stream reads one batch ahead of the consumer, then holds it.
    await vi.waitFor(() => expect(stream.readableLength).toBeGreaterThan(0), {
      timeout: 30_000,
      interval: 10,
    });
    // Time for a loop that did not wait for the consumer to read many more batches.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(batches).toHaveLength(2);
    const closed = new Promise((resolve) => stream.once('close', resolve));
    await iterator.return?.();
    await closed;
    expect(stream.destroyed).toBe(true);
    expect(batches).toHaveLength(2);
  }, 60_000);

  it('streams every row over HTTP in many chunks, in the list order', async () => {
    const rowsBefore = await metric('switchyard_log_export_rows_total');
    const { response } = await startDownload(`start_timestamp=${T0}&end_timestamp=${T0 + ROWS}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    const parts: Buffer[] = [];
    for await (const chunk of response) parts.push(chunk as Buffer);
    expect(parts.length).toBeGreaterThanOrEqual(ROWS / LOG_EXPORT_BATCH_ROWS);
    const text = Buffer.concat(parts).toString('utf8');
    expect(text.startsWith(BOM)).toBe(true);
    const records = csvObjects(parseCsv(text.slice(BOM.length)));
    expect(records).toHaveLength(ROWS);
    // Newest first: created_at descending, then id descending; every row once.
    for (let index = 1; index < records.length; index++) {
      const previous = records[index - 1]!;
      const current = records[index]!;
      const order =
        Number(previous.created_at) - Number(current.created_at) || Number(previous.id) - Number(current.id);
      if (order <= 0) expect.fail(`row ${index} out of order: ${previous.id} then ${current.id}`);
    }
    expect(new Set(records.map((record) => record.request_id)).size).toBe(ROWS);
    expect(records[0]).toMatchObject({
      quota: String(ROWS - 1),
      content: `row ${ROWS - 1}, "quoted" ${PADDING}`,
    });
    expect(records.at(-1)).toMatchObject({ quota: '0', created_at: String(T0) });
    expect((await metric('switchyard_log_export_rows_total')) - rowsBefore).toBe(ROWS);
    expect(await metric('switchyard_log_exports_active')).toBe(0);
  }, 120_000);

  it('stops reading when the client leaves, and allows one export at a time per admin', async () => {
    const rowsBefore = await metric('switchyard_log_export_rows_total');
    const { response, abort } = await startDownload(`start_timestamp=${T0}&end_timestamp=${T0 + ROWS}`);
    expect(response.statusCode).toBe(200);
    // Take one chunk, then stop reading.
    await new Promise<void>((resolve) => response.once('data', () => resolve()));
    response.pause();
    expect(await metric('switchyard_log_exports_active')).toBe(1);
    expectRefused(
      await root.get('/api/log/export?type=1'),
      '已有一个日志导出正在进行，请等它完成后再试',
      429,
    );

    abort();
    await vi.waitFor(async () => expect(await metric('switchyard_log_exports_active')).toBe(0), {
      timeout: 30_000,
      interval: 50,
    });
    const readBeforeLeaving = (await metric('switchyard_log_export_rows_total')) - rowsBefore;
    expect(readBeforeLeaving).toBeGreaterThan(0);
    expect(readBeforeLeaving).toBeLessThan(ROWS / 2);
    // Nothing more is read afterwards.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await metric('switchyard_log_export_rows_total')) - rowsBefore).toBe(readBeforeLeaving);
    // The slot is free again.
    const next = await root.get(`/api/log/export?start_timestamp=${T0}&end_timestamp=${T0}`);
    expect(next.statusCode).toBe(200);
    expect(csvObjects(parseCsv(next.body.slice(BOM.length)))).toHaveLength(3);
  }, 120_000);

  // Last: it closes the app.
  it('cuts an export still streaming when the app closes, so shutdown does not wait for the client', async () => {
    const { response } = await startDownload(`start_timestamp=${T0}&end_timestamp=${T0 + ROWS}`);
    expect(response.statusCode).toBe(200);
    await new Promise<void>((resolve) => response.once('data', () => resolve()));
    response.pause();
    const ended = new Promise<string>((resolve) => {
      response.once('error', () => resolve('error'));
      response.once('aborted', () => resolve('aborted'));
      response.once('end', () => resolve('end'));
    });
    await t.app.close();
    response.resume();
    expect(['error', 'aborted']).toContain(await ended);
  }, 120_000);
});
