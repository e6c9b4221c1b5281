import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope } from '../helper.ts';
import {
  createChannel,
  createCommonUser,
  createToken,
  eventually,
  type RelayFixture,
  relayPost,
  settledLogs,
  startRelayFixture,
  tokenRow,
  userBalance,
} from '../relay/relay-support.ts';
import { otherPoller, pollTasks, relayGet, systemLogs } from './task-support.ts';

/** suno_music 0.1 USD and suno_lyrics 0.01 USD at QuotaPerUnit 500000. */
const MUSIC = 50_000;
const LYRICS = 5_000;

describe('Suno relay', () => {
  let fixture: RelayFixture;
  let channelId: number;
  let user: Awaited<ReturnType<typeof createCommonUser>>;
  let token: { key: string; id: number };

  beforeAll(async () => {
    fixture = await startRelayFixture();
    channelId = await createChannel(fixture, {
      name: 'suno',
      type: 36,
      key: 'suno-key',
      base_url: `${fixture.mock.url}/__mock/task-step-100`,
      models: 'suno_music,suno_lyrics',
    });
    await createChannel(fixture, {
      name: 'suno-failing',
      type: 36,
      key: 'suno-key',
      base_url: `${fixture.mock.url}/__mock/task-step-0,task-fail`,
      models: 'suno_lyrics',
      group: 'vip',
    });
    user = await createCommonUser(fixture, 'singer', 1_000_000);
    token = await createToken(user.client, { unlimited_quota: false, remain_quota: 300_000 });
  });
  afterAll(() => fixture.close());

  it('submits music, charges it and follows it to SUCCESS with the timer loop', async () => {
    const submitted = await relayPost(
      fixture,
      token.key,
      { prompt: 'a calm song', title: 'Calm' },
      { path: '/suno/submit/music' },
    );
    expect(submitted.status).toBe(200);
    expect(submitted.json).toMatchObject({ code: 'success', message: '' });
    const taskId = submitted.json.data as string;
    const forwarded = fixture.mock.lastRequest()!;
    expect(forwarded.path).toBe('/suno/submit/music');
    expect(forwarded.headers.authorization).toBe('Bearer suno-key');
    expect(forwarded.body).toMatchObject({ prompt: 'a calm song', mv: 'chirp-v3-0' });
    expect(await userBalance(fixture, user.id)).toMatchObject({
      quota: 1_000_000 - MUSIC,
      used_quota: MUSIC,
    });
    expect(Number((await tokenRow(fixture, token.id)).remain_quota)).toBe(300_000 - MUSIC);
    expect((await settledLogs(fixture)).at(-1)).toMatchObject({
      model_name: 'suno_music',
      quota: MUSIC,
      content: `模型固定价格 0.10，分组倍率 1.00，操作 MUSIC，ID ${taskId}`,
    });

    const first = await relayGet(fixture, token.key, `/suno/fetch/${taskId}`);
    expect(first.json.data).toMatchObject({
      task_id: taskId,
      action: 'MUSIC',
      status: 'SUBMITTED',
      progress: '0%',
    });
    const loop = otherPoller(fixture);
    loop.start(50);
    try {
      const done = await eventually(
        () => relayGet(fixture, token.key, `/suno/fetch/${taskId}`),
        (reply) => reply.json.data.status === 'SUCCESS',
        5000,
      );
      expect(done.json.data.progress).toBe('100%');
      expect(done.json.data.data).toHaveLength(2);
    } finally {
      await loop.stop();
    }
    const many = await relayPost(fixture, token.key, { ids: [taskId, 'unknown'] }, { path: '/suno/fetch' });
    expect(many.json.data.map((task: { task_id: string }) => task.task_id)).toEqual([taskId]);
  });

  it('refunds a failed task exactly once to the user and the token', async () => {
    await fixture.root.put('/api/user/', { id: user.id, group: 'vip' });
    const before = await userBalance(fixture, user.id);
    const tokenBefore = Number((await tokenRow(fixture, token.id)).remain_quota);
    const submitted = await relayPost(
      fixture,
      token.key,
      { prompt: 'sad words' },
      { path: '/suno/submit/lyrics' },
    );
    expect(submitted.json.code).toBe('success');
    const taskId = submitted.json.data as string;
    expect((await userBalance(fixture, user.id)).quota).toBe(before.quota - LYRICS);
    await Promise.all([pollTasks(fixture), otherPoller(fixture).pollOnce()]);
    await pollTasks(fixture);
    const after = await userBalance(fixture, user.id);
    expect(after.quota).toBe(before.quota);
    expect(after.used_quota).toBe(before.used_quota);
    expect(Number((await tokenRow(fixture, token.id)).remain_quota)).toBe(tokenBefore);
    const task = await relayGet(fixture, token.key, `/suno/fetch/${taskId}`);
    expect(task.json.data).toMatchObject({
      status: 'FAILURE',
      progress: '100%',
      fail_reason: 'Mock scenario: the task failed upstream.',
    });
    const refunds = (await systemLogs(fixture, user.id)).filter((row) => row.content?.includes(taskId));
    expect(refunds.map((row) => row.content)).toEqual([`异步任务执行失败 ${taskId}，补偿 $0.01`]);
    await fixture.root.put('/api/user/', { id: user.id, group: 'default' });
  });

  it('refuses bad submits in the TaskError shape without charging', async () => {
    const before = await userBalance(fixture, user.id);
    const badAction = await relayPost(fixture, token.key, { prompt: 'x' }, { path: '/suno/submit/video' });
    expect(badAction.status).toBe(400);
    expect(badAction.json).toEqual({ code: 'invalid_request', message: 'invalid_action', data: null });
    const noPrompt = await relayPost(fixture, token.key, { title: 'x' }, { path: '/suno/submit/lyrics' });
    expect(noPrompt.json).toMatchObject({ message: 'prompt_empty' });
    const orphan = await relayPost(
      fixture,
      token.key,
      { continue_clip_id: 'c1' },
      { path: '/suno/submit/music' },
    );
    expect(orphan.json).toMatchObject({ message: 'task id is empty' });
    const missing = await relayGet(fixture, token.key, '/suno/fetch/nope');
    expect(missing.json).toMatchObject({ code: 'task_not_exist' });
    const noToken = await relayPost(fixture, null, { prompt: 'x' }, { path: '/suno/submit/music' });
    expect(noToken.status).toBe(401);
    expect(await userBalance(fixture, user.id)).toEqual(before);
  });

  it('lists tasks for admins and users with filters and paging, as bare arrays', async () => {
    const admin = envelope(await fixture.root.get(`/api/task/?channel_id=${channelId}&p=0&page_size=10`));
    expect(admin.data).toHaveLength(1);
    expect(admin.data[0]).toMatchObject({
      platform: 'suno',
      action: 'MUSIC',
      status: 'SUCCESS',
      quota: MUSIC,
    });
    const all = envelope(await fixture.root.get('/api/task/?platform=suno'));
    expect(all.data).toHaveLength(2);
    const failed = envelope(await user.client.get('/api/task/self?status=FAILURE'));
    expect(failed.data.map((row: { action: string }) => row.action)).toEqual(['LYRICS']);
    const byTask = envelope(
      await user.client.get(`/api/task/self?task_id=${admin.data[0].task_id}&action=MUSIC`),
    );
    expect(byTask.data).toHaveLength(1);
    const later = envelope(
      await user.client.get(`/api/task/self?start_timestamp=${Math.floor(Date.now() / 1000) + 3600}`),
    );
    expect(later.data).toEqual([]);
    const pageTwo = envelope(await user.client.get('/api/task/self?p=1&page_size=1'));
    expect(pageTwo.data).toHaveLength(1);
    expect(envelope(await user.client.get('/api/task/self?p=2&page_size=1')).data).toEqual([]);
    // As the reference console sends it with empty date pickers: NaN bounds count as none.
    const odd = envelope(
      await user.client.get('/api/task/self?p=0&task_id=&start_timestamp=NaN&end_timestamp=NaN'),
    );
    expect(odd.success, odd.message).toBe(true);
    expect(odd.data).toHaveLength(2);
    expect(envelope(await user.client.get('/api/task/')).success).toBe(false);
    const stranger = await createCommonUser(fixture, 'listener', 0);
    expect(envelope(await stranger.client.get('/api/task/self')).data).toEqual([]);
  });
});
