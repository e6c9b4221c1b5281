import { LOG_TOTAL_CAP } from '@switchyard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewLog } from '../../src/db/repositories/log-repository.ts';
import { LOG_COLUMN_DEFAULTS } from '../../src/db/repositories/log-repository.ts';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';
import { createUser, expectOk, ROOT_PASSWORD } from './console-support.ts';

// The log lists on large tables: the total counted up to a cap (and flagged), the model filter
// resolved to exact names (still "contains, ignoring ASCII case", merged in time order), and the
// search by request id. Rows are seeded straight into the log database.

/** Seeded rows live in 2021, far from rows the test setup writes (now) and from logs.test.ts's. */
const T0 = 1_620_000_000;
const WINDOW = `start_timestamp=${T0}&end_timestamp=${T0 + 100_000}`;

/** A request id as the gateway forms it: UTC yyyyMMddHHmmss, 9 digits, 8 characters. */
const requestIdAt = (seconds: number, tail: string) =>
  `${new Date(seconds * 1000).toISOString().replace(/[-:T]/g, '').slice(0, 14)}123456789${tail}`;

describe('log lists at scale: capped total, exact model names, request id', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let carol: ConsoleClient;
  let carolId: number;
  let daveId: number;

  const insert = async (rows: NewLog[]) => {
    const db = t.app.services.logDatabase.db;
    for (let i = 0; i < rows.length; i += 500) {
      await db
        .insertInto('logs')
        .values(rows.slice(i, i + 500).map((row) => ({ ...LOG_COLUMN_DEFAULTS, ...row })))
        .execute();
    }
  };
  const adminList = async (query: string) => expectOk(await root.get(`/api/log/?page_size=100&${query}`));
  const modelsOf = (page: { items: Array<{ model_name: string }> }) =>
    page.items.map((item) => item.model_name);

  beforeAll(async () => {
    t = await buildTestApp();
    root = await t.login('root', ROOT_PASSWORD);
    carolId = await createUser(root, 'carol');
    daveId = await createUser(root, 'dave');
    carol = await t.login('carol', 'password123');
    const consume = (extra: Partial<NewLog>): NewLog => ({ type: 2, quota: 1, ...extra });
    // Models interleaved in time, with LIKE wildcards in two names.
    await insert([
      consume({ user_id: carolId, username: 'carol', model_name: 'GPT-4o', created_at: T0 + 1 }),
      consume({ user_id: carolId, username: 'carol', model_name: 'gpt-4o-mini', created_at: T0 + 2 }),
      consume({ user_id: daveId, username: 'dave', model_name: 'claude-x', created_at: T0 + 3 }),
      consume({ user_id: carolId, username: 'carol', model_name: 'GPT-4o', created_at: T0 + 4 }),
      consume({ user_id: daveId, username: 'dave', model_name: 'my_gpt%model', created_at: T0 + 5 }),
      consume({ user_id: daveId, username: 'dave', model_name: 'mygptxmodel', created_at: T0 + 6 }),
      consume({ user_id: carolId, username: 'carol', model_name: 'gpt-4o-mini', created_at: T0 + 7 }),
    ]);
    // Request ids: one row per user, and one written more than an hour after its request began.
    const other = (requestId: string) => JSON.stringify({ group: 'default', request_id: requestId });
    await insert([
      consume({
        user_id: carolId,
        username: 'carol',
        model_name: 'rid',
        created_at: T0 + 50_000,
        other: other(requestIdAt(T0 + 49_990, 'aaaaaaaa')),
      }),
      consume({
        user_id: daveId,
        username: 'dave',
        model_name: 'rid',
        created_at: T0 + 50_001,
        other: other(requestIdAt(T0 + 49_995, 'bbbbbbbb')),
      }),
      consume({
        user_id: daveId,
        username: 'dave',
        model_name: 'rid',
        created_at: T0 + 60_000,
        other: other(requestIdAt(T0 + 50_000, 'cccccccc')),
      }),
      consume({
        user_id: daveId,
        username: 'dave',
        model_name: 'rid',
        created_at: T0 + 50_002,
        other: other('custom-id-1'),
      }),
    ]);
  });

  afterAll(async () => {
    await t.close();
  });

  it('matches the model filter as a substring ignoring ASCII case, newest first across names', async () => {
    const page = await adminList(`${WINDOW}&model_name=gpt-4O`);
    expect(modelsOf(page)).toEqual(['gpt-4o-mini', 'GPT-4o', 'gpt-4o-mini', 'GPT-4o']);
    expect(page.total).toBe(4);
    expect(page.total_capped).toBe(false);
    expect(modelsOf(await adminList(`${WINDOW}&model_name=CLAUDE`))).toEqual(['claude-x']);
  });

  it('takes % and _ in the model filter literally', async () => {
    expect(modelsOf(await adminList(`${WINDOW}&model_name=${encodeURIComponent('_gpt%')}`))).toEqual([
      'my_gpt%model',
    ]);
    expect(modelsOf(await adminList(`${WINDOW}&model_name=${encodeURIComponent('%')}`))).toEqual([
      'my_gpt%model',
    ]);
    const none = await adminList(`${WINDOW}&model_name=no-such-model`);
    expect(none).toMatchObject({ items: [], total: 0, total_capped: false });
  });

  it('pages through rows merged from several model names in time order', async () => {
    const first = expectOk(await root.get(`/api/log/?p=1&page_size=2&${WINDOW}&model_name=gpt`));
    const second = expectOk(await root.get(`/api/log/?p=2&page_size=2&${WINDOW}&model_name=gpt`));
    const third = expectOk(await root.get(`/api/log/?p=3&page_size=2&${WINDOW}&model_name=gpt`));
    expect([...modelsOf(first), ...modelsOf(second), ...modelsOf(third)]).toEqual([
      'gpt-4o-mini',
      'mygptxmodel',
      'my_gpt%model',
      'GPT-4o',
      'gpt-4o-mini',
      'GPT-4o',
    ]);
    expect(first.total).toBe(6);
  });

  it('combines the model filter with the others, and keeps a user to their own rows', async () => {
    expect(modelsOf(await adminList(`${WINDOW}&model_name=gpt&username=dave`))).toEqual([
      'mygptxmodel',
      'my_gpt%model',
    ]);
    const own = expectOk(await carol.get(`/api/log/self/?page_size=100&${WINDOW}&model_name=GPT`));
    expect(modelsOf(own)).toEqual(['gpt-4o-mini', 'GPT-4o', 'gpt-4o-mini', 'GPT-4o']);
  });

  it("finds a row by its request id, without a time range, and only among the caller's own rows", async () => {
    const carolRequest = requestIdAt(T0 + 49_990, 'aaaaaaaa');
    const found = await adminList(`request_id=${carolRequest}`);
    expect(found.items.map((item: { created_at: number }) => item.created_at)).toEqual([T0 + 50_000]);
    expect(found.total).toBe(1);
    expect(expectOk(await carol.get(`/api/log/self/?request_id=${carolRequest}`)).items).toHaveLength(1);
    const daveRequest = requestIdAt(T0 + 49_995, 'bbbbbbbb');
    expect(expectOk(await carol.get(`/api/log/self/?request_id=${daveRequest}`))).toMatchObject({
      items: [],
      total: 0,
    });
    expect((await adminList(`request_id=${daveRequest}&username=carol`)).items).toEqual([]);
  });

  it('matches a request id exactly, wildcards literally', async () => {
    expect((await adminList(`request_id=${requestIdAt(T0 + 49_990, 'aaaaaaa')}`)).items).toEqual([]);
    expect(
      (await adminList(`request_id=${encodeURIComponent(`${requestIdAt(T0 + 49_990, 'aaaaaaa')}%`)}`)).items,
    ).toEqual([]);
    expect(
      (await adminList(`request_id=${encodeURIComponent(requestIdAt(T0 + 49_990, 'aaaaaaa_'))}`)).items,
    ).toEqual([]);
  });

  it('looks for a time-prefixed request id within the hour after its time; other ids within the given range', async () => {
    // Written 10,000 s after the request began: outside the searched hour.
    expect((await adminList(`request_id=${requestIdAt(T0 + 50_000, 'cccccccc')}`)).items).toEqual([]);
    const custom = await adminList(`${WINDOW}&request_id=custom-id-1`);
    expect(custom.items.map((item: { created_at: number }) => item.created_at)).toEqual([T0 + 50_002]);
    // A time range that excludes the request's hour finds nothing.
    const carolRequest = requestIdAt(T0 + 49_990, 'aaaaaaaa');
    expect(
      (await adminList(`start_timestamp=${T0}&end_timestamp=${T0 + 40_000}&request_id=${carolRequest}`))
        .items,
    ).toEqual([]);
  });

  it('counts the total up to the cap past the page’s start and flags a capped total', async () => {
    const base = T0 + 200_000;
    const rows: NewLog[] = Array.from({ length: LOG_TOTAL_CAP + 5 }, (_, i) => ({
      type: 2,
      user_id: daveId,
      username: 'dave',
      token_name: 'bulk',
      model_name: 'bulk-model',
      quota: 1,
      created_at: base + i,
    }));
    await insert(rows);
    const range = `start_timestamp=${base}&end_timestamp=${base + LOG_TOTAL_CAP + 10}`;
    const capped = expectOk(await root.get(`/api/log/?p=1&page_size=10&${range}`));
    expect(capped).toMatchObject({ total: LOG_TOTAL_CAP, total_capped: true, page: 1, page_size: 10 });
    expect(capped.items[0].created_at).toBe(base + LOG_TOTAL_CAP + 4);
    const exact = expectOk(
      await root.get(`/api/log/?p=1&page_size=10&start_timestamp=${base}&end_timestamp=${base + 99}`),
    );
    expect(exact).toMatchObject({ total: 100, total_capped: false });
    // A later page counts as far past its own start: the pager always offers the pages after it.
    const later = expectOk(await root.get(`/api/log/?p=51&page_size=10&${range}`));
    expect(later).toMatchObject({ total: LOG_TOTAL_CAP + 5, total_capped: false });
    const last = expectOk(await root.get(`/api/log/?p=${LOG_TOTAL_CAP / 10 + 1}&page_size=10&${range}`));
    expect(last).toMatchObject({ total: LOG_TOTAL_CAP + 5, total_capped: false });
    expect(last.items.map((item: { created_at: number }) => item.created_at)).toEqual([
      base + 4,
      base + 3,
      base + 2,
      base + 1,
      base,
    ]);
  });
});
