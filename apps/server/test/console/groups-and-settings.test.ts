import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';
import { createChannel } from './channels-support.ts';
import {
  createUser,
  expectOk,
  expectRefused,
  ROOT_PASSWORD,
  setOption,
  uniqueName,
} from './console-support.ts';

/** Groups, usable groups and model lists, and a user's notification settings. */

let t: TestApp;
let root: ConsoleClient;
let admin: ConsoleClient;

beforeAll(async () => {
  t = await buildTestApp();
  root = await t.login('root', ROOT_PASSWORD);
  const name = uniqueName('ad');
  await createUser(root, name, 'password123', 10);
  admin = await t.login(name, 'password123');
});
afterAll(async () => t.close());

describe('groups and models', () => {
  it('lists group names and the usable groups of a user', async () => {
    expect(expectOk(await admin.get('/api/group/'))).toEqual(['default', 'vip', 'svip']);
    const id = await createUser(root, uniqueName('gr'));
    const user = await t.login(
      (expectOk(await root.get(`/api/user/${id}`)) as { username: string }).username,
      'password123',
    );
    expect(expectOk(await user.get('/api/user/self/groups'))).toEqual({
      default: { ratio: 1, desc: '默认分组' },
      vip: { ratio: 1, desc: 'vip分组' },
    });
    expect(expectOk(await t.anonymous().get('/api/user/groups'))).toEqual(
      expectOk(await user.get('/api/user/self/groups')),
    );
    expectOk(await root.put('/api/user/', { id, group: 'svip' }));
    expect(expectOk(await user.get('/api/user/self/groups')).svip).toEqual({ ratio: 1, desc: '用户分组' });
    expect(expectOk(await t.anonymous().get('/api/user/groups')).svip).toBeUndefined();
    await setOption(root, 'GroupRatio', JSON.stringify({ default: 1, vip: 2, svip: 3, gold: 0.5 }));
    try {
      expect(expectOk(await admin.get('/api/group/'))).toEqual(['default', 'vip', 'svip', 'gold']);
      expect(expectOk(await user.get('/api/user/self/groups')).vip).toEqual({ ratio: 2, desc: 'vip分组' });
    } finally {
      await setOption(root, 'GroupRatio', JSON.stringify({ default: 1, vip: 1, svip: 1 }));
    }
  });

  it('has no user or enabled models before any channel exists, and lists channel-type defaults', async () => {
    expect(expectOk(await root.get('/api/user/models'))).toEqual([]);
    expect(expectOk(await admin.get('/api/channel/models_enabled'))).toEqual([]);
    const defaults = expectOk(await root.get('/api/models'));
    expect(defaults['1']).toContain('gpt-4o');
  });

  it('lists the enabled models of the groups a user may use once channels exist', async () => {
    const name = uniqueName('md');
    await createUser(root, name);
    const user = await t.login(name, 'password123');
    const first = await createChannel(root, { name: 'a', group: 'default,vip', models: 'm-b,m-a' });
    await createChannel(root, { name: 'c', group: 'svip', models: 'm-c' });
    expect(expectOk(await user.get('/api/user/models'))).toEqual(['m-a', 'm-b']);
    expect(expectOk(await admin.get('/api/channel/models_enabled'))).toEqual(['m-a', 'm-b', 'm-c']);
    expectOk(await root.put('/api/channel/', { id: first, status: 2 }));
    expect(expectOk(await user.get('/api/user/models'))).toEqual([]);
    expect(expectOk(await admin.get('/api/channel/models_enabled'))).toEqual(['m-c']);
  });
});

describe('user settings', () => {
  let user: ConsoleClient;
  beforeAll(async () => {
    const name = uniqueName('us');
    await createUser(root, name);
    user = await t.login(name, 'password123');
  });
  const put = (body: Record<string, unknown>) => user.put('/api/user/setting', body);

  it.each([
    [
      { notify_type: 'webhook', quota_warning_threshold: 10, webhook_url: 'http://example.com/hook' },
      /https/,
    ],
    [{ notify_type: 'webhook', quota_warning_threshold: 10, webhook_url: 'not a url' }, /https/],
    [{ notify_type: 'webhook', quota_warning_threshold: 10 }, /https/],
    [{ notify_type: 'email', quota_warning_threshold: 0 }, '额度预警阈值必须大于 0'],
    [{ notify_type: 'email', quota_warning_threshold: 0.5 }, '额度预警阈值必须大于 0'],
    [{ notify_type: 'email', quota_warning_threshold: 1e300 }, '额度预警阈值过大'],
    [{ notify_type: 'email', quota_warning_threshold: -5 }, /quota_warning_threshold/],
    [{ notify_type: 'email', quota_warning_threshold: 10, notification_email: 'nope' }, '无效的通知邮箱地址'],
    [{ notify_type: 'sms', quota_warning_threshold: 10 }, /notify_type/],
  ])('refuses %j', async (body, message) => {
    expectRefused(await put(body), message);
  });

  it('stores valid settings as the user setting JSON', async () => {
    expectOk(
      await put({
        notify_type: 'webhook',
        quota_warning_threshold: 500000,
        webhook_url: 'https://example.com/hook',
        webhook_secret: 's3cret',
        notification_email: 'me@example.com',
      }),
    );
    const setting = JSON.parse(expectOk(await user.get('/api/user/self')).setting);
    expect(setting).toEqual({
      notify_type: 'webhook',
      quota_warning_threshold: 500000,
      webhook_url: 'https://example.com/hook',
      webhook_secret: 's3cret',
      notification_email: 'me@example.com',
    });
  });
});
