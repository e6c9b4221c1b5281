import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type ConsoleClient, envelope, type TestApp } from '../../helper.ts';
import { createChannel } from '../channels-support.ts';
import { createUser, expectOk, ROOT_PASSWORD } from '../console-support.ts';
import { CHANNEL, expectArrayOf, expectShape, MIDJOURNEY, PAGE, TASK, TOKEN } from './reference-shapes.ts';

/**
 * The lists new-api v0.4.8.9.1's console reads, requested exactly as that console builds the URLs
 * (TokensTable, ChannelsTable, MjLogsTable, TaskLogsTable, LogsTable, UsersTable, RedemptionsTable),
 * empty filters and `NaN` dates included, and checked against the shapes its Go controllers build.
 */
describe('console contract: lists', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let user: ConsoleClient;
  let userId: number;
  let tokenKey: string;

  beforeAll(async () => {
    t = await buildTestApp();
    root = await t.login('root', ROOT_PASSWORD);
    userId = await createUser(root, 'contract');
    user = await t.login('contract', 'password123');
    const created = expectOk(
      await user.post('/api/token/', { name: 'first', remain_quota: 500000, expired_time: -1 }),
    );
    tokenKey = created[0].key;
    expectOk(await user.post('/api/token/', { name: 'second', remain_quota: 0, unlimited_quota: true }));
    await createChannel(root, { name: 'plain' });
    await createChannel(root, { name: 'east-1', tag: 'east' });
    await createChannel(root, { name: 'east-2', tag: 'east' });
    const { db } = t.app.services.database;
    const now = Date.now();
    await db
      .insertInto('midjourneys')
      .values({
        user_id: userId,
        mj_id: 'mj-1',
        action: 'IMAGINE',
        submit_time: now,
        buttons: '[]',
        prompt: 'cat',
      })
      .execute();
    await db
      .insertInto('tasks')
      .values({
        user_id: userId,
        task_id: 'task-1',
        platform: 'suno',
        action: 'MUSIC',
        submit_time: Math.floor(now / 1000),
      })
      .execute();
  });
  afterAll(async () => t.close());

  it('GET /api/token/?p=0&size=10 and ?p=0&size=100: a bare array of tokens with the stored 48-character key', async () => {
    for (const url of ['/api/token/?p=0&size=10', '/api/token/?p=0&size=100']) {
      const tokens = expectArrayOf(expectOk(await user.get(url)), TOKEN, url) as Array<{
        key: string;
        name: string;
      }>;
      expect(tokens.map((token) => token.name)).toEqual(['second', 'first']);
      for (const token of tokens) expect(token.key).toMatch(/^[0-9a-zA-Z]{48}$/);
      // The console copies `sk-` + key: that must be the working key.
      expect(`sk-${tokens[1]!.key}`).toBe(tokenKey);
    }
    expect(expectOk(await user.get('/api/token/?p=1&size=10'))).toEqual([]);
  });

  it('GET /api/token/search?keyword=&token=: a bare array, the key searchable with or without sk-', async () => {
    expectArrayOf(expectOk(await user.get('/api/token/search?keyword=&token=')), TOKEN, 'search');
    expect(expectOk(await user.get('/api/token/search?keyword=fir&token='))).toHaveLength(1);
    expect(expectOk(await user.get(`/api/token/search?keyword=&token=${tokenKey}`))).toHaveLength(1);
    expect(expectOk(await user.get(`/api/token/search?keyword=&token=${tokenKey.slice(3)}`))).toHaveLength(1);
  });

  it('GET /api/token/:id and PUT /api/token/ (full and status_only) answer one token with its stored key', async () => {
    const [, first] = expectOk(await user.get('/api/token/?p=0&size=10')) as Array<Record<string, unknown>>;
    const one = expectOk(await user.get(`/api/token/${first!.id}`));
    expectShape(one, TOKEN, 'get');
    expect(one.key).toBe(tokenKey.slice(3));
    // EditToken sends the loaded token back with model_limits joined into a string.
    const edited = expectOk(
      await user.put('/api/token/', { ...one, name: 'renamed', model_limits: '', id: one.id }),
    );
    expectShape(edited, TOKEN, 'put');
    expect(edited).toMatchObject({ name: 'renamed', key: one.key });
    const disabled = expectOk(await user.put('/api/token/?status_only=true', { id: one.id, status: 2 }));
    expectShape(disabled, TOKEN, 'status_only');
    expect(disabled).toMatchObject({ status: 2, key: one.key });
  });

  it('GET /api/channel/?p=0&page_size=10&id_sort=false&tag_mode=false: a bare array of channels, no keys', async () => {
    const url = '/api/channel/?p=0&page_size=10&id_sort=false&tag_mode=false';
    const response = await root.get(url);
    expect(response.body).not.toContain('sk-secret-key-0001');
    const channels = expectArrayOf(envelope(response).data, CHANNEL, url) as Array<{ name: string }>;
    expect(channels.map((channel) => channel.name).sort()).toEqual(['east-1', 'east-2', 'plain']);
    expect(expectOk(await root.get('/api/channel/?p=1&page_size=10&id_sort=true&tag_mode=false'))).toEqual(
      [],
    );
  });

  it('tag_mode=true: the channels of the page of tags, flat, untagged channels left out', async () => {
    const url = '/api/channel/?p=0&page_size=10&id_sort=true&tag_mode=true';
    const channels = expectArrayOf(expectOk(await root.get(url)), CHANNEL, url) as Array<{
      name: string;
      tag: string;
    }>;
    expect(channels.map((channel) => channel.name)).toEqual(['east-2', 'east-1']);
    expect(channels.every((channel) => channel.tag === 'east')).toBe(true);
  });

  it('GET /api/channel/search?keyword=&group=&model=&id_sort=&tag_mode=: a bare array (group=null means none)', async () => {
    for (const url of [
      '/api/channel/search?keyword=east&group=&model=&id_sort=false&tag_mode=false',
      '/api/channel/search?keyword=east&group=null&model=&id_sort=false&tag_mode=false',
    ]) {
      expect(expectArrayOf(expectOk(await root.get(url)), CHANNEL, url)).toHaveLength(2);
    }
    const tagged = '/api/channel/search?keyword=east-1&group=&model=&id_sort=true&tag_mode=true';
    expect(expectArrayOf(expectOk(await root.get(tagged)), CHANNEL, tagged)).toHaveLength(2);
  });

  it('GET /api/mj/ and /api/mj/self/ with empty filters and NaN dates: bare arrays of drawings', async () => {
    const self = '/api/mj/self/?p=0&mj_id=&start_timestamp=NaN&end_timestamp=NaN';
    const mine = expectArrayOf(expectOk(await user.get(self)), MIDJOURNEY, self);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ mj_id: 'mj-1', buttons: '[]', properties: '' });
    const all = '/api/mj/?p=0&channel_id=&mj_id=&start_timestamp=&end_timestamp=';
    expect(expectArrayOf(expectOk(await root.get(all)), MIDJOURNEY, all)).toHaveLength(1);
    expect(
      expectOk(await root.get('/api/mj/?p=1&channel_id=&mj_id=&start_timestamp=&end_timestamp=')),
    ).toEqual([]);
  });

  it('GET /api/task/ and /api/task/self with empty filters and NaN dates: bare arrays of tasks', async () => {
    const self = '/api/task/self?p=0&task_id=&start_timestamp=NaN&end_timestamp=NaN';
    const mine = expectArrayOf(expectOk(await user.get(self)), TASK, self);
    expect(mine).toMatchObject([{ task_id: 'task-1', platform: 'suno' }]);
    const all = '/api/task/?p=0&channel_id=&task_id=&start_timestamp=NaN&end_timestamp=NaN';
    expect(expectArrayOf(expectOk(await root.get(all)), TASK, all)).toHaveLength(1);
  });

  it('users, redemptions and logs keep {items, total, page, page_size} (p from 1)', async () => {
    for (const url of [
      '/api/user/?p=1&page_size=10',
      '/api/user/search?keyword=contract&group=&p=1&page_size=10',
      '/api/redemption/?p=1&page_size=10',
      '/api/redemption/search?keyword=&p=1&page_size=10',
      '/api/log/?p=1&page_size=10&type=0&username=&token_name=&model_name=&start_timestamp=NaN&end_timestamp=NaN&channel=&group=',
    ]) {
      const page = expectOk(await root.get(url));
      expectShape(page, PAGE, url);
      expect(page.page, url).toBe(1);
    }
    const self =
      '/api/log/self/?p=1&page_size=10&type=0&token_name=&model_name=&start_timestamp=NaN&end_timestamp=NaN&group=';
    expectShape(expectOk(await user.get(self)), PAGE, self);
    expect(
      expectOk(await root.get('/api/user/search?keyword=contract&group=&p=1&page_size=10')).items,
    ).toHaveLength(1);
  });

  it('GET /api/log/stat and /api/log/self/stat: {quota, rpm, tpm}', async () => {
    const stat =
      '/api/log/stat?type=0&username=&token_name=&model_name=&start_timestamp=NaN&end_timestamp=NaN&channel=&group=';
    const self =
      '/api/log/self/stat?type=0&token_name=&model_name=&start_timestamp=NaN&end_timestamp=NaN&group=';
    for (const [client, url] of [
      [root, stat],
      [user, self],
    ] as const) {
      expectShape(
        expectOk(await client.get(url)),
        { quota: ['number'], rpm: ['number'], tpm: ['number'] },
        url,
      );
    }
  });
});
