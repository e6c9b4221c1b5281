import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope } from '../helper.ts';
import {
  chatBody,
  createChannel,
  createCommonUser,
  createToken,
  type RelayFixture,
  relayPost,
  setOption,
  settledLogs,
  startRelayFixture,
} from '../relay/relay-support.ts';

// Real relay calls against the mock upstream: their consume rows in the admin, self and token log
// views and stats, and the dashboard data (quota_data) they feed.

describe('logs and dashboard data from real relay calls', () => {
  let f: RelayFixture;
  let channelId: number;
  let alice: Awaited<ReturnType<typeof createCommonUser>>;
  let bob: Awaited<ReturnType<typeof createCommonUser>>;
  let aliceKey: string;
  let bobKey: string;

  const data = (response: Awaited<ReturnType<RelayFixture['root']['get']>>) => {
    const body = envelope(response);
    expect(body.success, body.message).toBe(true);
    return body.data;
  };
  const quotaDataOf = (userId: number) =>
    f.t.app.services.database.db.selectFrom('quota_data').selectAll().where('user_id', '=', userId).execute();

  beforeAll(async () => {
    f = await startRelayFixture();
    channelId = await createChannel(f, { name: 'mock-one' });
    alice = await createCommonUser(f, 'alice', 10_000_000);
    bob = await createCommonUser(f, 'bob', 10_000_000);
    aliceKey = (await createToken(alice.client, { name: 'alice-key' })).key;
    bobKey = (await createToken(bob.client, { name: 'bob-key' })).key;
    for (const [key, content] of [
      [aliceKey, 'first call from alice'],
      [aliceKey, 'second call from alice, a bit longer'],
      [bobKey, 'bob says hi'],
    ] as const) {
      const reply = await relayPost(f, key, chatBody('gpt-4o-mini', content));
      expect(reply.status, reply.text).toBe(200);
    }
    await settledLogs(f);
  });
  afterAll(async () => f.close());

  it('shows the consume rows with channel names to admins and without admin data to their owners', async () => {
    const logs = (await settledLogs(f)).filter((row) => row.user_id === alice.id);
    expect(logs.length).toBe(2);

    const admin = data(await f.root.get('/api/log/?type=2&username=alice'));
    expect(admin.total).toBe(2);
    for (const item of admin.items) {
      expect(item).toMatchObject({ channel: channelId, channel_name: 'mock-one', token_name: 'alice-key' });
      expect(JSON.parse(item.other).admin_info.use_channel).toEqual([String(channelId)]);
    }

    const own = data(await alice.client.get('/api/log/self/?type=2'));
    expect(own.total).toBe(2);
    expect(own.items.map((item: { id: number }) => item.id)).toEqual(
      [...logs].sort((a, b) => b.id - a.id).map((row) => row.id),
    );
    for (const item of own.items) {
      expect(item).not.toHaveProperty('channel');
      expect(item).not.toHaveProperty('channel_name');
      const other = JSON.parse(item.other);
      expect(other).not.toHaveProperty('admin_info');
      expect(other).toMatchObject({ model_ratio: 0.075, completion_ratio: 4, group_ratio: 1 });
      expect(item).toMatchObject({ model_name: 'gpt-4o-mini', username: 'alice', type: 2 });
    }
    // The admin's quota change for alice is a management row in her own list.
    const managed = data(await alice.client.get('/api/log/self/?type=3'));
    expect(managed.total).toBe(1);
    expect(managed.items[0].content).toContain('管理员');

    const viaKey = data(await f.t.anonymous().get(`/api/log/token?key=${aliceKey}`));
    expect(viaKey.map((item: { id: number }) => item.id)).toEqual(
      own.items.map((item: { id: number }) => item.id),
    );
    const bobs = data(await bob.client.get('/api/log/self/?type=2'));
    expect(bobs.items.map((item: { user_id: number }) => item.user_id)).toEqual([bob.id]);
  });

  it('counts the calls in the stats', async () => {
    const logs = (await settledLogs(f)).filter((row) => row.user_id === alice.id);
    const tokens = logs.reduce((sum, row) => sum + row.prompt_tokens + row.completion_tokens, 0);
    const quota = logs.reduce((sum, row) => sum + Number(row.quota), 0);
    expect(data(await alice.client.get('/api/log/self/stat'))).toEqual({ quota, rpm: 2, tpm: tokens });
    const all = data(await f.root.get('/api/log/stat'));
    expect(all.rpm).toBe(3);
    expect(data(await f.root.get(`/api/log/stat?channel=${channelId}&username=alice`))).toEqual({
      quota,
      rpm: 2,
      tpm: tokens,
    });
  });

  it('feeds quota_data from each charged call when data export is on', async () => {
    await f.t.app.services.quotaData.flush();
    const logs = (await settledLogs(f)).filter((row) => row.user_id === alice.id);
    // Two calls a moment apart: one hourly bucket (two if they straddled an hour boundary).
    const buckets = await quotaDataOf(alice.id);
    const total = (field: 'count' | 'quota' | 'token_used') =>
      buckets.reduce((sum, row) => sum + Number(row[field]), 0);
    for (const bucket of buckets) {
      expect(bucket).toMatchObject({ username: 'alice', model_name: 'gpt-4o-mini' });
      expect(Number(bucket.created_at) % 3600).toBe(0);
    }
    expect(total('count')).toBe(2);
    expect(total('quota')).toBe(logs.reduce((sum, row) => sum + Number(row.quota), 0));
    expect(total('token_used')).toBe(
      logs.reduce((sum, row) => sum + row.prompt_tokens + row.completion_tokens, 0),
    );
    const own = data(await alice.client.get('/api/data/self'));
    expect(own.reduce((sum: number, row: { count: number }) => sum + row.count, 0)).toBe(2);
    expect((await quotaDataOf(bob.id)).map((row) => Number(row.count))).toEqual([1]);

    await setOption(f, 'DataExportEnabled', 'false');
    try {
      const reply = await relayPost(f, aliceKey, chatBody('gpt-4o-mini', 'not exported'));
      expect(reply.status).toBe(200);
      await settledLogs(f);
      expect(f.t.app.services.quotaData.pending).toBe(0);
      await f.t.app.services.quotaData.flush();
      const counts = (await quotaDataOf(alice.id)).map((row) => Number(row.count));
      expect(counts.reduce((sum, count) => sum + count, 0)).toBe(2);
    } finally {
      await setOption(f, 'DataExportEnabled', 'true');
    }
  });
});
