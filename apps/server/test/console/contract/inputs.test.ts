import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type ConsoleClient, envelope, type TestApp } from '../../helper.ts';
import { createChannel } from '../channels-support.ts';
import {
  createUser,
  expectOk,
  expectRefused,
  ROOT_PASSWORD,
  readOption,
  setOption,
} from '../console-support.ts';

/**
 * Requests as new-api v0.4.8.9.1's console sends them where its inputs are odd (nulls, missing
 * values, NaN, trailing slashes), answered as its Go controllers answer them: Go's JSON decoder
 * leaves a null or missing string empty, strconv reads a non-number as 0.
 */
describe('console contract: odd inputs and small answers', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let user: ConsoleClient;

  beforeAll(async () => {
    t = await buildTestApp();
    root = await t.login('root', ROOT_PASSWORD);
    await createUser(root, 'inputs');
    user = await t.login('inputs', 'password123');
  });
  afterAll(async () => t.close());

  it('POST /api/user/register takes aff_code: null (no ?aff= link) and other null text as empty', async () => {
    // RegisterForm posts its whole state, with aff_code from localStorage: null when never set.
    const body = {
      username: 'nullaff',
      password: 'password123',
      password2: 'password123',
      email: '',
      verification_code: '',
      aff_code: null,
    };
    expectOk(await t.anonymous().post('/api/user/register?turnstile=', body));
    await t.login('nullaff', 'password123');
    const withNulls = {
      username: 'nulls2',
      password: 'password123',
      password2: null,
      email: null,
      verification_code: null,
      aff_code: null,
    };
    expectOk(await t.anonymous().post('/api/user/register?turnstile=', withNulls));
    expectRefused(
      await t.anonymous().post('/api/user/register?turnstile=', { ...body, username: null }),
      '用户名不能为空',
    );
  });

  it('PUT /api/option/ {key} without a value saves "" (the Telegram save sends no value for an unloaded secret)', async () => {
    await setOption(root, 'TelegramBotName', 'before');
    expectOk(await root.put('/api/option/', { key: 'TelegramBotName' }));
    expect(await readOption(root, 'TelegramBotName')).toBe('');
  });

  it('reads non-integer query values as 0, as strconv does', async () => {
    expect(expectOk(await root.get('/api/user/?p=abc&page_size=NaN'))).toMatchObject({
      page: 1,
      page_size: 10,
    });
    expect(expectOk(await user.get('/api/token/?p=NaN&size=NaN'))).toEqual([]);
    // SettingsLog with an empty date sends target_timestamp=NaN: "no timestamp", as in the reference.
    expectRefused(await root.delete('/api/log/?target_timestamp=NaN'), 'target timestamp is required');
    // Detail (the dashboard) with cleared dates.
    expect(
      expectOk(await user.get('/api/data/self/?start_timestamp=NaN&end_timestamp=NaN&default_time=hour')),
    ).toEqual([]);
  });

  it('takes the trailing slash the console puts after ids', async () => {
    const [token] = expectOk(await user.post('/api/token/', { name: 'gone', remain_quota: 1 }));
    expectOk(await user.delete(`/api/token/${token.id}/`));
    const channel = await createChannel(root, { name: 'gone' });
    expectOk(await root.delete(`/api/channel/${channel}/`));
    const [code] = expectOk(await root.post('/api/redemption/', { name: 'gone', quota: 1, count: 1 }));
    expect(typeof code).toBe('string');
    const { id } = expectOk(await root.get('/api/redemption/?p=1&page_size=10')).items[0];
    expectOk(await root.delete(`/api/redemption/${id}/`));
  });

  it('takes back what the edit forms loaded (EditChannel, EditToken, EditUser send the whole object)', async () => {
    const channelId = await createChannel(root, { name: 'edit-me', models: 'gpt-4o', group: 'default' });
    const channel = expectOk(await root.get(`/api/channel/${channelId}`));
    const models: string[] = channel.models.split(',');
    const groups: string[] = channel.group.split(',');
    const edited = {
      ...channel,
      models: [...models, 'gpt-4o-mini'].join(','),
      groups,
      group: groups.join(','),
    };
    expectOk(await root.put('/api/channel/', { ...edited, name: 'edited', id: channelId }));
    expect(expectOk(await root.get(`/api/channel/${channelId}`))).toMatchObject({
      name: 'edited',
      models: 'gpt-4o,gpt-4o-mini',
    });

    const [created] = expectOk(
      await user.post('/api/token/', {
        name: 'edit-token',
        remain_quota: 10,
        expired_time: -1,
        unlimited_quota: false,
        model_limits_enabled: false,
        model_limits: '',
        allow_ips: '',
        group: '',
      }),
    );
    const token = expectOk(await user.get(`/api/token/${created.id}`));
    expectOk(
      await user.put('/api/token/', { ...token, name: 'edited-token', model_limits: '', id: token.id }),
    );
    expect(expectOk(await user.get(`/api/token/${created.id}`)).name).toBe('edited-token');

    const { items } = expectOk(await root.get('/api/user/search?keyword=inputs&group=&p=1&page_size=10'));
    const loaded = expectOk(await root.get(`/api/user/${items[0].id}`));
    expectOk(
      await root.put('/api/user/', { ...loaded, password: '', display_name: 'Edited', id: loaded.id }),
    );
    expect(expectOk(await root.get(`/api/user/${loaded.id}`)).display_name).toBe('Edited');
  });

  it('answers the counts and lists the console reads as plain values', async () => {
    const a = await createChannel(root, { name: 'a', models: 'gpt-4o', group: 'default' });
    const b = await createChannel(root, { name: 'b', models: 'gpt-4o-mini', group: 'default' });
    expect(expectOk(await root.post('/api/channel/batch/tag', { ids: [a, b], tag: 'batch' }))).toBe(2);
    expect(typeof expectOk(await root.post('/api/channel/fix'))).toBe('number');
    expect(expectOk(await root.get('/api/channel/models_enabled'))).toEqual(
      expect.arrayContaining(['gpt-4o', 'gpt-4o-mini']),
    );
    expect(expectOk(await root.get('/api/group/'))).toContain('default');
    const groups = expectOk(await user.get('/api/user/self/groups'));
    expect(groups.default).toMatchObject({ ratio: expect.any(Number), desc: expect.any(String) });
    expect(expectOk(await user.get('/api/user/models'))).toEqual(expect.arrayContaining(['gpt-4o']));
    expect(typeof expectOk(await user.get('/api/user/aff'))).toBe('string');
    expect(typeof expectOk(await user.get('/api/user/token'))).toBe('string');
    expect(typeof expectOk(await root.delete('/api/channel/disabled'))).toBe('number');
    expect(expectOk(await root.post('/api/channel/batch', { ids: [a, b] }))).toBe(2);
    const models = envelope(await user.get('/api/models'));
    expect(models.success).toBe(true);
    expect(typeof models.data).toBe('object');
  });
});
