import { Role } from '@switchyard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { NewLog } from '../../src/db/repositories/log-repository.ts';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';
import { createUser, expectOk, expectRefused, NO_PERMISSION, ROOT_PASSWORD } from './console-support.ts';

// GET /api/log/ and /api/log/self/: filters, combinations, paging, views, isolation, searches,
// permissions and bad input, on rows seeded straight into the log database. Stats and the
// token-log route are in logs-stat.test.ts; real relay rows in logs-relay.test.ts.

/** Seeded rows live in 2020, far from the rows the test setup itself writes (now). */
const T0 = 1_600_000_000;
const WINDOW = `start_timestamp=${T0}&end_timestamp=${T0 + 1000}`;
const ADMIN_INFO = { admin_info: { use_channel: ['1', '2'] } };

describe('logs: lists, filters, views and searches', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let alice: ConsoleClient;
  let bob: ConsoleClient;
  let admin: ConsoleClient;
  let aliceId: number;
  let bobId: number;
  let channelOne: number;
  let channelTwo: number;
  /** Seeded row ids by label. */
  const ids: Record<string, number> = {};

  const createChannel = async (name: string) => {
    const created = expectOk(
      await root.post('/api/channel/', { name, type: 1, key: 'sk-x', models: 'gpt-4o', group: 'default' }),
    );
    return created[0].id as number;
  };

  const seed = async (rows: Array<NewLog & { label: string }>) => {
    const db = t.app.services.logDatabase.db;
    for (const { label, ...row } of rows) {
      await db.insertInto('logs').values(row).execute();
      const inserted = await db
        .selectFrom('logs')
        .select('id')
        .where('created_at', '=', Number(row.created_at))
        .where('user_id', '=', Number(row.user_id))
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      ids[label] = Number(inserted.id);
    }
  };

  /** Labels of the rows a list reply returns, in order. */
  const labelsOf = (items: Array<{ id: number }>) =>
    items.map((item) => Object.entries(ids).find(([, id]) => id === item.id)?.[0] ?? `?${item.id}`);

  /** The query plus the seeded window, unless the query sets its own time range. */
  const windowed = (query: string) => (query.includes('timestamp') ? query : `${WINDOW}&${query}`);
  const adminList = async (query: string) =>
    expectOk(await root.get(`/api/log/?page_size=100&${windowed(query)}`));
  const selfList = async (client: ConsoleClient, query: string) =>
    expectOk(await client.get(`/api/log/self/?page_size=100&${windowed(query)}`));

  beforeAll(async () => {
    t = await buildTestApp();
    root = await t.login('root', ROOT_PASSWORD);
    aliceId = await createUser(root, 'alice');
    bobId = await createUser(root, 'bob');
    await createUser(root, 'admin1', 'password123', Role.Admin);
    alice = await t.login('alice', 'password123');
    bob = await t.login('bob', 'password123');
    admin = await t.login('admin1', 'password123');
    channelOne = await createChannel('chan-one');
    channelTwo = await createChannel('chan-two');
    const consume = (extra: Partial<NewLog>): NewLog => ({
      type: 2,
      is_stream: 0,
      prompt_tokens: 10,
      completion_tokens: 5,
      content: '模型倍率 1.00',
      other: JSON.stringify({ model_ratio: 1, group_ratio: 1, ...ADMIN_INFO }),
      ip: '10.0.0.1',
      ...extra,
    });
    await seed([
      {
        label: 'a1',
        ...consume({
          user_id: aliceId,
          username: 'alice',
          token_name: 'ta1',
          model_name: 'gpt-4o-mini',
          channel_id: channelOne,
          group: 'default',
          quota: 100,
          created_at: T0 + 10,
          is_stream: 1,
        }),
      },
      {
        label: 'a2',
        ...consume({
          user_id: aliceId,
          username: 'alice',
          token_name: 'ta2',
          model_name: 'gpt-4o',
          channel_id: channelTwo,
          group: 'vip',
          quota: 200,
          created_at: T0 + 20,
        }),
      },
      {
        label: 'a3',
        user_id: aliceId,
        username: 'alice',
        type: 1,
        quota: 5000,
        content: '通过兑换码充值 $0.01',
        created_at: T0 + 30,
      },
      {
        label: 'a4',
        user_id: aliceId,
        username: 'alice',
        type: 3,
        content: '管理员修改额度',
        created_at: T0 + 40,
      },
      {
        label: 'b1',
        ...consume({
          user_id: bobId,
          username: 'bob',
          token_name: 'tb1',
          model_name: 'claude-3-haiku',
          channel_id: channelOne,
          group: 'default',
          quota: 300,
          created_at: T0 + 50,
        }),
      },
      {
        label: 'b2',
        user_id: bobId,
        username: 'bob',
        type: 4,
        content: '新用户注册赠送',
        created_at: T0 + 60,
      },
      {
        label: 'b3',
        user_id: bobId,
        username: 'bob',
        type: 5,
        model_name: 'gpt-4o',
        channel_id: channelTwo,
        content: 'upstream failed',
        other: JSON.stringify({ status: 502, ...ADMIN_INFO }),
        created_at: T0 + 70,
      },
      {
        label: 'a5',
        ...consume({
          user_id: aliceId,
          username: 'alice',
          token_name: 'ta1',
          model_name: 'my_model%x',
          channel_id: 99_999,
          group: 'default',
          quota: 7,
          created_at: T0 + 80,
          other: 'not json',
        }),
      },
    ]);
  });
  afterAll(async () => t.close());

  it('lists every row of the window newest first with the admin view', async () => {
    const data = await adminList('');
    expect(data).toMatchObject({ page: 1, page_size: 100, total: 8 });
    expect(labelsOf(data.items)).toEqual(['a5', 'b3', 'b2', 'b1', 'a4', 'a3', 'a2', 'a1']);
    const a1 = data.items.find((item: { id: number }) => item.id === ids.a1);
    expect(a1).toEqual({
      id: ids.a1,
      created_at: T0 + 10,
      type: 2,
      user_id: aliceId,
      username: 'alice',
      token_id: 0,
      token_name: 'ta1',
      model_name: 'gpt-4o-mini',
      quota: 100,
      prompt_tokens: 10,
      completion_tokens: 5,
      use_time: 0,
      is_stream: true,
      group: 'default',
      ip: '10.0.0.1',
      content: '模型倍率 1.00',
      other: JSON.stringify({ model_ratio: 1, group_ratio: 1, ...ADMIN_INFO }),
      channel: channelOne,
      channel_name: 'chan-one',
    });
    const byLabel = (label: string) => data.items.find((item: { id: number }) => item.id === ids[label]);
    expect(byLabel('a2').channel_name).toBe('chan-two');
    expect(byLabel('a5')).toMatchObject({ channel: 99_999, channel_name: '' });
    expect(byLabel('a3')).toMatchObject({ channel: 0, channel_name: '', other: '', token_name: '' });
  });

  it('applies each filter', async () => {
    const cases: Array<[string, string[]]> = [
      ['type=0', ['a5', 'b3', 'b2', 'b1', 'a4', 'a3', 'a2', 'a1']],
      ['type=2', ['a5', 'b1', 'a2', 'a1']],
      ['type=1', ['a3']],
      ['type=3', ['a4']],
      ['type=4', ['b2']],
      ['type=5', ['b3']],
      ['username=alice', ['a5', 'a4', 'a3', 'a2', 'a1']],
      ['username=ali', []],
      ['username=ALICE', []],
      ['token_name=ta1', ['a5', 'a1']],
      ['token_name=ta', []],
      ['model_name=gpt-4o', ['b3', 'a2', 'a1']],
      ['model_name=GPT-4O-MINI', ['a1']],
      ['model_name=haiku', ['b1']],
      ['model_name=%25', ['a5']],
      ['model_name=_', ['a5']],
      ['model_name=!', []],
      [`channel=${channelOne}`, ['b1', 'a1']],
      [`channel=${channelTwo}`, ['b3', 'a2']],
      ['channel=99999', ['a5']],
      ['group=vip', ['a2']],
      ['group=vi', []],
      [`start_timestamp=${T0 + 25}&end_timestamp=${T0 + 60}`, ['b2', 'b1', 'a4', 'a3']],
      [`start_timestamp=${T0 + 80}&end_timestamp=${T0 + 1000}`, ['a5']],
      [`end_timestamp=${T0 + 10}`, ['a1']],
    ];
    for (const [query, expected] of cases) {
      const data = await adminList(query);
      expect(labelsOf(data.items), query).toEqual(expected);
      expect(data.total, query).toBe(expected.length);
    }
  });

  it('combines filters with AND', async () => {
    const cases: Array<[string, string[]]> = [
      ['type=2&username=alice&model_name=gpt', ['a2', 'a1']],
      [`type=2&username=alice&model_name=gpt&channel=${channelTwo}`, ['a2']],
      ['type=2&token_name=ta1&group=default', ['a5', 'a1']],
      [`username=bob&channel=${channelTwo}`, ['b3']],
      [`username=bob&channel=${channelTwo}&type=2`, []],
      [`model_name=gpt-4o&start_timestamp=${T0 + 15}&end_timestamp=${T0 + 75}`, ['b3', 'a2']],
      ['group=default&model_name=claude&username=bob', ['b1']],
    ];
    for (const [query, expected] of cases) {
      const data = await adminList(query);
      expect(labelsOf(data.items), query).toEqual(expected);
      expect(data.total, query).toBe(expected.length);
    }
  });

  it('pages from p=1 with a total, clamping p and page_size', async () => {
    const first = expectOk(await root.get(`/api/log/?${WINDOW}&p=1&page_size=3`));
    expect(first).toMatchObject({ page: 1, page_size: 3, total: 8 });
    expect(labelsOf(first.items)).toEqual(['a5', 'b3', 'b2']);
    const second = expectOk(await root.get(`/api/log/?${WINDOW}&p=2&page_size=3`));
    expect(labelsOf(second.items)).toEqual(['b1', 'a4', 'a3']);
    const third = expectOk(await root.get(`/api/log/?${WINDOW}&p=3&page_size=3`));
    expect(labelsOf(third.items)).toEqual(['a2', 'a1']);
    const beyond = expectOk(await root.get(`/api/log/?${WINDOW}&p=9&page_size=3`));
    expect(beyond).toMatchObject({ items: [], page: 9, total: 8 });
    const zero = expectOk(await root.get(`/api/log/?${WINDOW}&p=0&page_size=3`));
    expect(zero.page).toBe(1);
    expect(labelsOf(zero.items)).toEqual(['a5', 'b3', 'b2']);
    const defaults = expectOk(await root.get(`/api/log/?${WINDOW}`));
    expect(defaults).toMatchObject({ page: 1, page_size: 10, total: 8 });
    expect(expectOk(await root.get(`/api/log/?${WINDOW}&page_size=0`)).page_size).toBe(10);
    expect(expectOk(await root.get(`/api/log/?${WINDOW}&page_size=5000`)).page_size).toBe(100);
  });

  it('lists everything without filters, the total matching the table', async () => {
    const data = expectOk(await root.get('/api/log/?p=1&page_size=100'));
    const { count } = await t.app.services.logDatabase.db
      .selectFrom('logs')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    expect(data.total).toBe(Number(count));
    expect(data.items.length).toBe(Math.min(100, Number(count)));
    const times = data.items.map((item: { created_at: number }) => item.created_at);
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('shows a user only their own rows, without channel data or admin_info, with real ids', async () => {
    const own = await selfList(alice, '');
    expect(labelsOf(own.items)).toEqual(['a5', 'a4', 'a3', 'a2', 'a1']);
    expect(own.total).toBe(5);
    for (const item of own.items) {
      expect(item).not.toHaveProperty('channel');
      expect(item).not.toHaveProperty('channel_name');
      expect(item.user_id).toBe(aliceId);
      expect(item.other).not.toContain('admin_info');
    }
    const a1 = own.items.find((item: { id: number }) => item.id === ids.a1);
    expect(JSON.parse(a1.other)).toEqual({ model_ratio: 1, group_ratio: 1 });
    expect(a1).toMatchObject({ model_name: 'gpt-4o-mini', quota: 100, ip: '10.0.0.1', is_stream: true });
    // Unparseable `other` cannot be checked for admin data, so it is not shown.
    expect(own.items.find((item: { id: number }) => item.id === ids.a5).other).toBe('');

    const bobs = await selfList(bob, '');
    expect(labelsOf(bobs.items)).toEqual(['b3', 'b2', 'b1']);
    expect(JSON.parse(bobs.items[0].other)).toEqual({ status: 502 });
  });

  it('ignores username and channel on self lists and applies the other filters to own rows', async () => {
    expect(labelsOf((await selfList(alice, 'username=bob')).items)).toEqual(['a5', 'a4', 'a3', 'a2', 'a1']);
    expect(labelsOf((await selfList(alice, `channel=${channelOne}`)).items)).toEqual([
      'a5',
      'a4',
      'a3',
      'a2',
      'a1',
    ]);
    expect(labelsOf((await selfList(alice, 'type=2')).items)).toEqual(['a5', 'a2', 'a1']);
    expect(labelsOf((await selfList(alice, 'model_name=claude')).items)).toEqual([]);
    expect(labelsOf((await selfList(bob, 'model_name=claude')).items)).toEqual(['b1']);
    expect(labelsOf((await selfList(alice, 'token_name=ta1&type=2')).items)).toEqual(['a5', 'a1']);
    expect(labelsOf((await selfList(alice, 'group=vip')).items)).toEqual(['a2']);
    expect(
      labelsOf((await selfList(alice, `start_timestamp=${T0 + 15}&end_timestamp=${T0 + 35}`)).items),
    ).toEqual(['a3', 'a2']);
    const paged = expectOk(await alice.get(`/api/log/self?${WINDOW}&p=2&page_size=2`));
    expect(paged).toMatchObject({ page: 2, page_size: 2, total: 5 });
    expect(labelsOf(paged.items)).toEqual(['a3', 'a2']);
  });

  it('searches all rows by type or content prefix (admin) and own rows by type (self)', async () => {
    const byType = expectOk(await root.get('/api/log/search?keyword=2'));
    expect(Array.isArray(byType)).toBe(true);
    for (const label of ['a1', 'a2', 'b1', 'a5']) expect(labelsOf(byType)).toContain(label);
    for (const item of byType) expect(item.type === 2 || String(item.content).startsWith('2')).toBe(true);
    expect(byType.find((item: { id: number }) => item.id === ids.a1).channel_name).toBe('chan-one');

    const byContent = expectOk(await root.get(`/api/log/search?keyword=${encodeURIComponent('通过兑换码')}`));
    expect(labelsOf(byContent)).toEqual(['a3']);
    expect(expectOk(await root.get(`/api/log/search?keyword=${encodeURIComponent('兑换码')}`))).toEqual([]);
    expect(expectOk(await root.get('/api/log/search?keyword=%25'))).toEqual([]);
    expect(expectOk(await root.get('/api/log/search?keyword=_')).length).toBe(0);
    expect(expectOk(await root.get('/api/log/search')).length).toBeLessThanOrEqual(100);

    const own = expectOk(await alice.get('/api/log/self/search?keyword=2'));
    expect(labelsOf(own).filter((label) => !label.startsWith('?'))).toEqual(['a5', 'a2', 'a1']);
    for (const item of own) {
      expect(item.user_id).toBe(aliceId);
      expect(item.type).toBe(2);
      expect(item).not.toHaveProperty('channel');
      expect(item.other).not.toContain('admin_info');
    }
    expect(labelsOf(expectOk(await bob.get('/api/log/self/search?keyword=5')))).toEqual(['b3']);
    expect(expectOk(await alice.get('/api/log/self/search?keyword=5'))).toEqual([]);
    expect(expectOk(await alice.get('/api/log/self/search?keyword=abc'))).toEqual([]);
    expect(expectOk(await alice.get('/api/log/self/search?keyword=0'))).toEqual([]);
    expect(expectOk(await alice.get('/api/log/self/search'))).toEqual([]);
  });

  it('writes a batch mixing consume rows and rows without token counts (error, system)', async () => {
    const at = T0 + 5000;
    await t.app.services.logs.insertMany([
      {
        type: 2,
        user_id: aliceId,
        username: 'alice',
        quota: 3,
        prompt_tokens: 1,
        completion_tokens: 2,
        created_at: at,
      },
      { type: 5, user_id: aliceId, username: 'alice', content: 'failed', created_at: at },
      { type: 4, user_id: bobId, content: 'system', created_at: at },
    ]);
    const data = expectOk(await root.get(`/api/log/?start_timestamp=${at}&end_timestamp=${at}`));
    expect(data.total).toBe(3);
    const error = data.items.find((item: { type: number }) => item.type === 5);
    expect(error).toMatchObject({
      quota: 0,
      prompt_tokens: 0,
      token_name: '',
      model_name: '',
      content: 'failed',
    });
  });

  it('lets admins use the admin routes and refuses common users and anonymous callers', async () => {
    expect(expectOk(await admin.get(`/api/log/?${WINDOW}`)).total).toBe(8);
    for (const url of ['/api/log/', '/api/log/stat', '/api/log/search?keyword=1', '/api/data/']) {
      expectRefused(await alice.get(url), NO_PERMISSION);
    }
    const anonymous = t.anonymous();
    for (const url of [
      '/api/log/',
      '/api/log/self/',
      '/api/log/stat',
      '/api/log/self/stat',
      '/api/log/search',
      '/api/log/self/search',
      '/api/data/',
      '/api/data/self',
    ]) {
      expectRefused(await anonymous.get(url), undefined, 401);
    }
  });

  it('never answers bad input with a server error', async () => {
    const bad = [
      'type=abc',
      'type=-1',
      'type=1.5',
      'p=abc',
      'p=-5',
      'p=99999999999999999999',
      'page_size=abc',
      'page_size=-1',
      'start_timestamp=-5',
      'start_timestamp=abc',
      'end_timestamp=1e30',
      'channel=x',
      'channel=-1',
      `model_name=${'m'.repeat(300)}`,
      `username=${'u'.repeat(300)}`,
      'model_name=%27%20or%201%3D1--',
      'token_name=%00',
      'group[]=a&group[]=b',
      'type=&channel=&start_timestamp=&end_timestamp=&username=&token_name=&model_name=&group=',
    ];
    for (const query of bad) {
      for (const client of [root, alice]) {
        for (const path of ['/api/log/', '/api/log/self/', '/api/log/stat', '/api/log/self/stat']) {
          if (client === alice && !path.includes('self')) continue;
          const response = await client.get(`${path}?${query}`);
          expect(response.statusCode, `${path}?${query}`).toBeLessThan(500);
          expect(typeof response.json().success).toBe('boolean');
        }
      }
    }
    // What the console sends when filters are left empty is accepted.
    const empty = expectOk(
      await root.get(
        `/api/log/?p=1&page_size=10&type=0&username=&token_name=&model_name=&start_timestamp=${T0}&end_timestamp=${T0 + 1000}&channel=&group=`,
      ),
    );
    expect(empty.total).toBe(8);
    for (const keyword of ['%', "' or 1=1 --", 'x'.repeat(1000), '\\']) {
      for (const [client, path] of [
        [root, '/api/log/search'],
        [alice, '/api/log/self/search'],
      ] as const) {
        const response = await client.get(`${path}?keyword=${encodeURIComponent(keyword)}`);
        expect(response.statusCode).toBeLessThan(500);
      }
    }
  });
});
