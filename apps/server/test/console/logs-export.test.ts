import { Role } from '@switchyard/shared';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewLog } from '../../src/db/repositories/log-repository.ts';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';
import { csvObjects, parseCsv } from '../support/parse-csv.ts';
import { testDatabaseKind } from '../support/test-database.ts';
import { createUser, expectOk, expectRefused, NO_PERMISSION, ROOT_PASSWORD } from './console-support.ts';

// GET /api/log/export: the CSV holds exactly the rows GET /api/log/ lists for the same filters, in
// its order; nasty text survives the round trip; formulas are neutralised; access and bad input.
// The streaming behaviour on a large table is in logs-export-stream.test.ts.

/** Seeded rows live in 2020, away from the rows the test setup itself writes (now). */
const T0 = 1_600_000_000;
const WINDOW = `start_timestamp=${T0}&end_timestamp=${T0 + 1000}`;
const BOM = '\uFEFF';

/** Text that breaks naive CSV writers and readers. */
const NASTY = {
  comma: 'a,b,c',
  quotes: 'he said "hi", then ""bye""',
  newlines: 'line1\nline2\r\nline3\rend',
  spaces: '  padded both  ',
  cjk: '模型倍率 1.00，分组倍率 1（测试）',
  emoji: '😀 👍🏽 𠮷野家 👨‍👩‍👧',
  formula: '=HYPERLINK("http://evil.example","click")',
  plus: '+1+2',
  minus: '-2+3',
  at: '@SUM(A1:A2)',
  tab: '\t=1',
};

describe('log export: rows, filters, escaping and access', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let alice: ConsoleClient;
  let admin: ConsoleClient;
  let channelOne: number;
  let gone: number;

  const exportOf = (client: ConsoleClient, query: string) =>
    client.get(`/api/log/export?${query.includes('timestamp') ? query : `${WINDOW}&${query}`}`);

  /** The records of a successful export, after checking its headers and BOM. */
  const recordsOf = (response: LightMyRequestResponse) => {
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(String(response.headers['content-disposition'])).toMatch(
      /^attachment; filename="logs-\d{8}-\d{6}\.csv"$/,
    );
    expect([...response.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(response.body.startsWith(BOM)).toBe(true);
    return csvObjects(parseCsv(response.body.slice(BOM.length)));
  };
  const exportedIds = async (query: string) =>
    recordsOf(await exportOf(root, query)).map((record) => Number(record.id));
  const listedIds = async (query: string) => {
    const page = expectOk(
      await root.get(`/api/log/?page_size=100&${query.includes('timestamp') ? query : `${WINDOW}&${query}`}`),
    );
    expect(page.total).toBeLessThan(100);
    return page.items.map((item: { id: number }) => item.id);
  };

  beforeAll(async () => {
    t = await buildTestApp();
    root = await t.login('root', ROOT_PASSWORD);
    const aliceId = await createUser(root, 'alice');
    const bobId = await createUser(root, 'bob');
    await createUser(root, 'admin1', 'password123', Role.Admin);
    alice = await t.login('alice', 'password123');
    admin = await t.login('admin1', 'password123');
    const createChannel = async (name: string) =>
      expectOk(
        await root.post('/api/channel/', { name, type: 1, key: 'sk-x', models: 'gpt-4o', group: 'default' }),
      )[0].id as number;
    channelOne = await createChannel('chan "one", main');
    gone = await createChannel('chan-gone');
    expectOk(await root.delete(`/api/channel/${gone}`));

    const consume = (extra: Partial<NewLog>): NewLog => ({
      type: 2,
      prompt_tokens: 10,
      completion_tokens: 5,
      use_time: 3,
      content: '模型倍率 1.00',
      other: JSON.stringify({ request_id: 'req-1', model_ratio: 1, admin_info: { use_channel: ['1'] } }),
      ip: '10.0.0.1',
      ...extra,
    });
    const alices = { user_id: aliceId, username: 'alice' };
    const bobs = { user_id: bobId, username: 'bob' };
    await t.app.services.logs.insertMany([
      consume({
        ...alices,
        token_name: 'ta',
        model_name: 'gpt-4o-mini',
        channel_id: channelOne,
        created_at: T0 + 10,
        is_stream: 1,
        quota: 100,
      }),
      consume({
        ...alices,
        token_name: 'tb',
        model_name: 'GPT-4o',
        channel_id: gone,
        group: 'vip',
        created_at: T0 + 20,
        quota: 200,
      }),
      // Three rows in one second: the order falls back to id, newest first.
      consume({
        ...bobs,
        token_name: 'ta',
        model_name: 'claude-3-haiku',
        channel_id: channelOne,
        created_at: T0 + 30,
      }),
      consume({
        ...bobs,
        token_name: 'ta',
        model_name: 'claude-3-opus',
        channel_id: channelOne,
        created_at: T0 + 30,
      }),
      consume({ ...bobs, token_name: 'tc', model_name: 'gpt_4o', channel_id: 0, created_at: T0 + 30 }),
      { ...alices, type: 1, quota: 5000, content: '通过兑换码充值 $0.01', created_at: T0 + 40 },
      { ...alices, type: 5, content: 'upstream error', other: null, created_at: T0 + 50 },
      // Outside the window.
      consume({ ...alices, token_name: 'ta', model_name: 'gpt-4o', created_at: T0 + 5000 }),
    ]);
    // The nasty rows, one per text, each in its own second after the others.
    await t.app.services.logs.insertMany(
      Object.entries(NASTY).map(([key, text], index) =>
        consume({
          ...bobs,
          token_name: text,
          model_name: `nasty-${key}`,
          group: 'nasty',
          content: text,
          other: JSON.stringify({ request_id: `req-${key}`, note: text }),
          created_at: T0 + 100 + index,
        }),
      ),
    );
  });
  afterAll(async () => t?.close());

  it('answers a CSV with a BOM, a header and every filtered row in the list order', async () => {
    const records = recordsOf(await exportOf(root, 'type=0'));
    expect(Object.keys(records[0] ?? {})).toEqual([
      'id',
      'created_at',
      'time (UTC+00:00)',
      'type',
      'user_id',
      'username',
      'token_id',
      'token_name',
      'model_name',
      'channel',
      'channel_name',
      'group',
      'quota',
      'prompt_tokens',
      'completion_tokens',
      'use_time',
      'is_stream',
      'ip',
      'request_id',
      'content',
      'other',
    ]);
    expect(records.map((record) => Number(record.id))).toEqual(await listedIds('type=0'));
    expect(records).toHaveLength(7 + Object.keys(NASTY).length);
  });

  it('writes each field as the admin list shows it', async () => {
    const list = expectOk(await root.get(`/api/log/?page_size=100&${WINDOW}&username=alice`)).items;
    const records = recordsOf(await exportOf(root, 'username=alice'));
    expect(records).toHaveLength(4);
    const byId = new Map(records.map((record) => [Number(record.id), record]));
    for (const item of list) {
      const record = byId.get(item.id);
      expect(record, `row ${item.id}`).toBeDefined();
      expect(record).toMatchObject({
        created_at: String(item.created_at),
        user_id: String(item.user_id),
        username: item.username,
        token_id: String(item.token_id),
        token_name: item.token_name,
        model_name: item.model_name,
        channel: String(item.channel),
        channel_name: item.channel_name,
        group: item.group,
        quota: String(item.quota),
        prompt_tokens: String(item.prompt_tokens),
        completion_tokens: String(item.completion_tokens),
        use_time: String(item.use_time),
        is_stream: String(item.is_stream),
        ip: item.ip,
        content: item.content,
        other: item.other,
      });
    }
    const [error, topUp, deleted, first] = records;
    expect(error).toMatchObject({ type: 'error', content: 'upstream error', other: '', request_id: '' });
    expect(topUp).toMatchObject({ type: 'topup', quota: '5000', content: '通过兑换码充值 $0.01' });
    // A deleted channel keeps its id and has no name; the admin view keeps admin_info.
    expect(deleted).toMatchObject({ type: 'consume', channel: String(gone), channel_name: '', group: 'vip' });
    expect(first).not.toHaveProperty('time');
    expect(first).toMatchObject({
      'time (UTC+00:00)': '2020-09-13 12:26:50',
      created_at: String(T0 + 10),
      channel_name: 'chan "one", main',
      is_stream: 'true',
      request_id: 'req-1',
    });
    expect(JSON.parse(first?.other ?? '')).toMatchObject({ admin_info: { use_channel: ['1'] } });
  });

  it('applies every filter of the list, alone and combined', async () => {
    const queries = [
      'username=bob',
      'username=nobody',
      'token_name=ta',
      'model_name=gpt-4O',
      'model_name=gpt_4o',
      `channel=${channelOne}`,
      'group=vip',
      'type=2',
      'type=1',
      'type=5',
      `start_timestamp=${T0 + 20}&end_timestamp=${T0 + 40}`,
      `start_timestamp=${T0 + 4000}`,
      `token_name=ta&username=bob&channel=${channelOne}&type=2`,
      'type=NaN&channel=',
    ];
    for (const query of queries) {
      expect(await exportedIds(query), query).toEqual(await listedIds(query));
    }
    expect(await exportedIds('username=nobody')).toEqual([]);
    expect((await exportedIds('model_name=gpt_4o')).length).toBe(1);
  });

  it('round-trips commas, quotes, line breaks, spaces and unicode; neutralises formulas', async () => {
    const records = recordsOf(await exportOf(root, 'group=nasty'));
    expect(records).toHaveLength(Object.keys(NASTY).length);
    const byModel = new Map(records.map((record) => [record.model_name, record]));
    const formula = new Set(['formula', 'plus', 'minus', 'at', 'tab']);
    for (const [key, text] of Object.entries(NASTY)) {
      const record = byModel.get(`nasty-${key}`);
      const shown = formula.has(key) ? `'${text}` : text;
      expect(record?.content, key).toBe(shown);
      expect(record?.token_name, key).toBe(shown);
      expect(record?.request_id, key).toBe(`req-${key}`);
      expect(JSON.parse(record?.other ?? '').note, key).toBe(text);
    }
  });

  it('writes the readable time at the offset asked for', async () => {
    const [record] = recordsOf(
      await exportOf(root, `utc_offset=480&start_timestamp=${T0}&end_timestamp=${T0 + 10}`),
    );
    expect(record?.['time (UTC+08:00)']).toBe('2020-09-13 20:26:50');
    const [west] = recordsOf(
      await exportOf(root, `utc_offset=-210&start_timestamp=${T0}&end_timestamp=${T0 + 10}`),
    );
    expect(west?.['time (UTC-03:30)']).toBe('2020-09-13 08:56:50');
  });

  it('is for admins only, refused in the envelope before any CSV', async () => {
    expectRefused(await exportOf(alice, ''), NO_PERMISSION);
    expectRefused(await exportOf(t.anonymous(), ''), '无权进行此操作，未登录且未提供 access token', 401);
    expect(recordsOf(await exportOf(admin, 'type=1'))).toHaveLength(1);
  });

  it('takes the user id from the query when the link cannot send New-Api-User', async () => {
    const link = (client: ConsoleClient, id: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/log/export?${WINDOW}&type=1${id}`,
        headers: { cookie: client.cookie ?? '' },
      });
    expect(recordsOf(await link(admin, `&new_api_user=${admin.userId}`))).toHaveLength(1);
    expectRefused(await link(admin, ''), '无权进行此操作，未提供 New-Api-User', 401);
    expectRefused(await link(admin, `&new_api_user=${root.userId}`), /不匹配/, 401);
    expectRefused(await link(alice, `&new_api_user=${alice.userId}`), NO_PERMISSION);
    // Other routes still want the header.
    const list = await t.app.inject({
      method: 'GET',
      url: `/api/log/?new_api_user=${admin.userId}`,
      headers: { cookie: admin.cookie ?? '' },
    });
    expectRefused(list, '无权进行此操作，未提供 New-Api-User', 401);
  });

  it('has no HEAD, which would read a whole export for nothing', async () => {
    const head = await t.app.inject({
      method: 'HEAD',
      url: `/api/log/export?${WINDOW}`,
      headers: { cookie: root.cookie ?? '', 'new-api-user': String(root.userId) },
    });
    expect(head.statusCode).toBe(404);
  });

  it('refuses bad filters in the envelope; reads an unusable offset as UTC, like other query integers', async () => {
    expectRefused(await exportOf(root, `username=${'x'.repeat(65)}`));
    expectRefused(await exportOf(root, `model_name=${'m'.repeat(256)}`));
    for (const offset of ['900', 'abc', '1.5']) {
      const [record] = recordsOf(await exportOf(root, `utc_offset=${offset}&type=1`));
      expect(record, offset).toHaveProperty(['time (UTC+00:00)']);
    }
  });

  if (testDatabaseKind === 'postgres') {
    it('answers a query the database refuses in the envelope, before any CSV', async () => {
      // PostgreSQL cannot compare text with a NUL byte: the first batch fails before the headers.
      const response = await exportOf(root, 'username=%00');
      expect(String(response.headers['content-type'])).toContain('application/json');
      expectRefused(response, '无效的参数: 含有不支持的字符');
    });
  }
});
