import { logTotalCap } from '@switchyard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOG_COLUMN_DEFAULTS, type LogRow, type NewLog } from '../../src/db/repositories/log-repository.ts';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';
import { csvObjects, parseCsv } from '../support/parse-csv.ts';
import { createUser, expectOk, ROOT_PASSWORD } from './console-support.ts';

// The log lists with several filters at once, on skewed rows (one user with most of the rows, a
// rare model, a popular one): whichever index a database drives a list with, the page, its total
// and the CSV export answer exactly what a plain filter over the rows answers.

/** Seeded rows live in 2021, away from the rows the test setup writes (now) and other files'. */
const T0 = 1_640_000_000;
const WINDOW = `start_timestamp=${T0}&end_timestamp=${T0 + 100_000}`;
const PAGE = 100;

interface Query {
  userId?: number;
  username?: string;
  token_name?: string;
  model_name?: string;
  type?: number;
  channel?: number;
  group?: string;
}

const asciiLower = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** The reference answer: every condition checked on every row, newest first. */
function naive(rows: LogRow[], q: Query): number[] {
  return rows
    .filter(
      (row) =>
        (q.userId === undefined || Number(row.user_id) === q.userId) &&
        (q.username === undefined || row.username === q.username) &&
        (q.token_name === undefined || row.token_name === q.token_name) &&
        (q.model_name === undefined || asciiLower(row.model_name).includes(asciiLower(q.model_name))) &&
        (q.type === undefined || Number(row.type) === q.type) &&
        (q.channel === undefined || Number(row.channel_id) === q.channel) &&
        (q.group === undefined || row.group === q.group),
    )
    .sort((a, b) => Number(b.created_at) - Number(a.created_at) || Number(b.id) - Number(a.id))
    .map((row) => Number(row.id));
}

/** The query string of a Query (the user id is the caller's own on the self route). */
function queryString(q: Query): string {
  const { userId: _, ...rest } = q;
  return Object.entries(rest)
    .map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`)
    .join('&');
}

describe('log lists with combined filters on skewed rows', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let heavy: ConsoleClient;
  let heavyId: number;
  let seeded: LogRow[];

  beforeAll(async () => {
    t = await buildTestApp();
    root = await t.login('root', ROOT_PASSWORD);
    heavyId = await createUser(root, 'heavy');
    const lightId = await createUser(root, 'light');
    const otherId = await createUser(root, 'other');
    heavy = await t.login('heavy', 'password123');
    const rows: NewLog[] = [];
    const row = (userId: number, username: string, i: number, extra: Partial<NewLog>): NewLog => ({
      ...LOG_COLUMN_DEFAULTS,
      user_id: userId,
      username,
      // Two rows a second, so the id decides the order within a second.
      created_at: T0 + Math.floor(i / 2),
      type: 2,
      quota: 1,
      ...extra,
    });
    for (let i = 0; i < 1200; i++) {
      rows.push(
        row(heavyId, 'heavy', i, {
          model_name: i % 2 ? 'pop-a' : 'POP-b',
          token_name: i % 5 < 2 ? 'heavy-key1' : 'heavy-key2',
          channel_id: 1 + (i % 2),
          group: i % 3 === 0 ? 'vip' : 'default',
          type: i % 17 === 0 ? 5 : 2,
        }),
      );
    }
    for (let i = 0; i < 4; i++) {
      rows.push(
        row(heavyId, 'heavy', 300 * i + 1, { model_name: i % 2 ? 'rare-a' : 'rare-b', channel_id: 3 }),
      );
    }
    for (let i = 0; i < 8; i++) {
      rows.push(
        row(lightId, 'light', 100 * i, {
          model_name: 'pop-a',
          token_name: 'default',
          channel_id: 2,
          group: 'vip',
        }),
      );
    }
    for (let i = 0; i < 300; i++) {
      rows.push(
        row(otherId, 'other', 4 * i, {
          model_name: i % 50 === 0 ? 'rare-a' : 'pop-a',
          token_name: 'default',
          channel_id: 1 + (i % 3),
          group: i % 2 ? 'vip' : 'default',
        }),
      );
    }
    // Upper-case beyond ASCII: the model filter ignores ASCII case only (as on SQLite), everywhere.
    rows.push(row(otherId, 'other', 7, { model_name: 'Ünicode-model' }));
    const db = t.app.services.logDatabase.db;
    for (let i = 0; i < rows.length; i += 250)
      await db
        .insertInto('logs')
        .values(rows.slice(i, i + 250))
        .execute();
    seeded = await db
      .selectFrom('logs')
      .selectAll()
      .where('created_at', '>=', T0)
      .where('created_at', '<=', T0 + 100_000)
      .execute();
  });

  afterAll(async () => {
    await t.close();
  });

  /** Pages 1 and 3 and the total of a list, against the reference. */
  async function expectSameAsNaive(client: ConsoleClient, route: string, q: Query): Promise<void> {
    const expected = naive(seeded, q);
    expect(expected.length).toBeGreaterThan(0);
    for (const p of [1, 3]) {
      const page = expectOk(
        await client.get(`${route}?p=${p}&page_size=${PAGE}&${WINDOW}&${queryString(q)}`),
      );
      expect(
        page.items.map((item: { id: number }) => item.id),
        `${route} ${queryString(q)} p=${p}`,
      ).toEqual(expected.slice((p - 1) * PAGE, p * PAGE));
      const cap = logTotalCap((p - 1) * PAGE);
      expect(page.total).toBe(Math.min(expected.length, cap));
      expect(page.total_capped).toBe(expected.length > cap);
    }
  }

  it('answers the admin list as a plain filter does, for pairs and triples of filters', async () => {
    const queries: Query[] = [
      { username: 'heavy', model_name: 'rare' },
      { username: 'heavy', model_name: 'rare-b' },
      { username: 'light', model_name: 'POP' },
      { username: 'other', model_name: 'rare' },
      { username: 'heavy', token_name: 'heavy-key1', type: 2 },
      { username: 'heavy', token_name: 'heavy-key2' },
      { token_name: 'default', channel: 2, group: 'vip' },
      { username: 'heavy', model_name: 'pop-a', channel: 2 },
      { username: 'heavy', type: 5 },
      { model_name: 'pop', group: 'vip' },
      { model_name: 'a', channel: 3 },
    ];
    for (const q of queries) await expectSameAsNaive(root, '/api/log/', q);
  });

  it("answers a user's own list as a plain filter does, capped total included", async () => {
    const queries: Query[] = [
      { userId: heavyId, model_name: 'rare' },
      { userId: heavyId, token_name: 'heavy-key1' },
      { userId: heavyId, model_name: 'pop', type: 2 },
      { userId: heavyId, model_name: 'POP-B', group: 'vip' },
      { userId: heavyId, type: 5, group: 'default' },
    ];
    for (const q of queries) await expectSameAsNaive(heavy, '/api/log/self/', q);
  });

  it('exports the rows the list shows for a model filter, matched as the list matches it', async () => {
    for (const q of [
      { model_name: 'rare' },
      { username: 'light', model_name: 'pop' },
      { model_name: 'RARE-A' },
    ]) {
      const list = expectOk(await root.get(`/api/log/?page_size=${PAGE}&${WINDOW}&${queryString(q)}`));
      expect(list.total).toBeLessThan(PAGE);
      const response = await root.get(`/api/log/export?${WINDOW}&${queryString(q)}`);
      expect(response.statusCode).toBe(200);
      const exported = csvObjects(parseCsv(response.body.slice(1))).map((record) => Number(record.id));
      expect(exported).toEqual(list.items.map((item: { id: number }) => item.id));
      expect(exported).toEqual(naive(seeded, q));
    }
    // No model name contains the pattern: a header and no rows.
    const none = await root.get(`/api/log/export?${WINDOW}&model_name=no-such-model`);
    expect(none.statusCode).toBe(200);
    expect(parseCsv(none.body.slice(1))).toHaveLength(1);
  });
});
