import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QuotaDataRepository } from '../../../src/logs/quota-data-repository.ts';
import { buildTestApp, type ConsoleClient, envelope, type TestApp } from '../../helper.ts';
import { createChannel } from '../channels-support.ts';
import { createUser, expectOk, expectRefused, ROOT_PASSWORD } from '../console-support.ts';
import { expectArrayOf, expectShape, LOG_STAT, PRICING, QUOTA_DATA, STATUS } from './reference-shapes.ts';

/**
 * The site, settings, statistics and channel-operation calls of new-api v0.4.8.9.1's console
 * (App, Home, About, Pricing, Playground, EditToken, the settings pages, LogsTable, Detail,
 * ChannelsTable), sent as it sends them and checked against controller/misc.go, group.go,
 * pricing.go, model.go, option.go, log.go, usedata.go, channel-test.go and channel-billing.go.
 */
describe('console contract: site, settings, statistics and channel operations', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let user: ConsoleClient;
  let channelId: number;

  beforeAll(async () => {
    t = await buildTestApp();
    root = await t.login('root', ROOT_PASSWORD);
    const userId = await createUser(root, 'site');
    user = await t.login('site', 'password123');
    channelId = await createChannel(root, { name: 'site' });
    const hour = Math.floor(Date.now() / 3_600_000) * 3600;
    // Written as the recorder's flush writes it: the bucket and its per-model-hour sum.
    await new QuotaDataRepository(t.app.services.database).addAll([
      { userId, username: 'site', modelName: 'gpt-4o', createdAt: hour, count: 2, quota: 30, tokenUsed: 40 },
    ]);
  });
  afterAll(async () => t.close());

  it('GET /api/status: every field GetStatus builds, with its JSON type', async () => {
    expectShape(expectOk(await t.anonymous().get('/api/status')), STATUS, 'status');
  });

  it('GET /api/notice, /api/about, /api/home_page_content: data is the option text', async () => {
    for (const url of ['/api/notice', '/api/about', '/api/home_page_content']) {
      expect(typeof expectOk(await t.anonymous().get(url)), url).toBe('string');
    }
    expectOk(await root.put('/api/option/', { key: 'Notice', value: 'hello' }));
    expect(expectOk(await t.anonymous().get('/api/notice'))).toBe('hello');
  });

  it('GET /api/models: data maps channel type ids to model name arrays', async () => {
    const data = expectOk(await user.get('/api/models'));
    expect(typeof data).toBe('object');
    expect(Array.isArray(data)).toBe(false);
    const entries = Object.entries(data as Record<string, unknown>);
    expect(entries.length).toBeGreaterThan(0);
    for (const [type, models] of entries) {
      expect(type).toMatch(/^\d+$/);
      expect(Array.isArray(models)).toBe(true);
    }
  });

  it('GET /api/pricing: data is a bare array of model.Pricing, with group_ratio and usable_group beside it', async () => {
    for (const client of [t.anonymous(), user]) {
      const body = JSON.parse((await client.get('/api/pricing')).body);
      expect(body.success).toBe(true);
      expectArrayOf(body.data, PRICING, 'pricing');
      expect(typeof body.group_ratio).toBe('object');
      expect(typeof body.usable_group).toBe('object');
      for (const ratio of Object.values(body.group_ratio)) expect(typeof ratio).toBe('number');
      for (const desc of Object.values(body.usable_group)) expect(typeof desc).toBe('string');
    }
  });

  it('GET /api/user/self/groups maps group names to {ratio, desc}; GET /api/group/ is a bare array of names', async () => {
    const groups = expectOk(await user.get('/api/user/self/groups'));
    expect(groups.default).toEqual({ ratio: expect.any(Number), desc: expect.any(String) });
    for (const value of Object.values(groups))
      expect(value).toEqual({ ratio: expect.any(Number), desc: expect.any(String) });
    const names = expectOk(await root.get('/api/group/'));
    expect(Array.isArray(names)).toBe(true);
    expect(names).toContain('default');
  });

  it('GET /api/option/: a bare array of {key, value} text, without *Token, *Secret and *Key options (but the public TurnstileSiteKey)', async () => {
    const options = expectOk(await root.get('/api/option/')) as Array<{ key: string; value: string }>;
    expect(options.length).toBeGreaterThan(0);
    for (const option of options) {
      expect(Object.keys(option).sort()).toEqual(['key', 'value']);
      expect(typeof option.value, option.key).toBe('string');
      if (option.key !== 'TurnstileSiteKey') expect(option.key).not.toMatch(/(Token|Secret|Key)$/);
    }
  });

  it('GET /api/log/stat and /api/log/self/stat with empty filters and NaN dates: data {quota, rpm, tpm}', async () => {
    const query = 'type=0&token_name=&model_name=&start_timestamp=NaN&end_timestamp=NaN&group=';
    expectShape(expectOk(await root.get(`/api/log/stat?${query}&username=&channel=`)), LOG_STAT, 'stat');
    expectShape(expectOk(await user.get(`/api/log/self/stat?${query}`)), LOG_STAT, 'self stat');
    expectShape(expectOk(await root.get('/api/log/stat?type=abc&channel=x')), LOG_STAT, 'stat, odd numbers');
  });

  it('GET /api/log/search and /api/log/self/search: data is a bare array', async () => {
    expect(Array.isArray(expectOk(await root.get('/api/log/search?keyword=')))).toBe(true);
    expect(Array.isArray(expectOk(await user.get('/api/log/self/search?keyword=')))).toBe(true);
  });

  it('GET /api/data/ and /api/data/self: bare arrays of model.QuotaData; more than a month is refused for self', async () => {
    const end = Math.floor(Date.now() / 1000) + 3600;
    const start = end - 86400;
    const all = expectArrayOf(
      expectOk(
        await root.get(
          `/api/data/?username=&start_timestamp=${start}&end_timestamp=${end}&default_time=hour`,
        ),
      ),
      QUOTA_DATA,
      'data',
    );
    expect(all.length).toBeGreaterThan(0);
    expect(all[0]).toMatchObject({ id: 0, user_id: 0, username: '' });
    const mine = expectArrayOf(
      expectOk(
        await user.get(`/api/data/self/?start_timestamp=${start}&end_timestamp=${end}&default_time=hour`),
      ),
      QUOTA_DATA,
      'data self',
    );
    expect(mine).toHaveLength(1);
    expectRefused(
      await user.get(
        `/api/data/self/?start_timestamp=${end - 2_592_001}&end_timestamp=${end}&default_time=hour`,
      ),
      '时间跨度不能超过 1 个月',
    );
  });

  it('GET /api/channel/test/:id?model=: success, message and time (seconds) at the top level', async () => {
    // The channel's upstream is unreachable, so the test fails; the envelope is the same either way.
    const body = JSON.parse((await root.get(`/api/channel/test/${channelId}?model=`)).body);
    expect(body.success).toBe(false);
    expect(typeof body.message).toBe('string');
    expect(typeof body.time).toBe('number');
    expectOk(await root.get('/api/channel/test'));
    expectRefused(await root.get('/api/channel/test/abc?model='));
  });

  it('GET /api/channel/update_balance/:id/ and /api/channel/update_balance: the usual envelope', async () => {
    const one = envelope(await root.get(`/api/channel/update_balance/${channelId}/`));
    expect(one.success).toBe(false);
    expect(one.message.length).toBeGreaterThan(0);
    expect(envelope(await root.get('/api/channel/update_balance')).success).toBe(true);
  });
});
