import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope } from '../helper.ts';
import {
  channelUsedQuota,
  createChannel,
  createCommonUser,
  createToken,
  type RelayFixture,
  relayPost,
  setOption,
  settledLogs,
  startRelayFixture,
  tokenRow,
  userBalance,
} from '../relay/relay-support.ts';
import { otherPoller, pollTasks, relayGet, sleep, submitDrawing, systemLogs } from './task-support.ts';

/** 0.1 USD (mj_imagine) and 0.05 USD (mj_upscale) at QuotaPerUnit 500000, group ratio 1. */
const IMAGINE = 50_000;
const UPSCALE = 25_000;

describe('Midjourney relay', () => {
  let fixture: RelayFixture;
  let channelId: number;
  let user: { id: number; client: Awaited<ReturnType<typeof createCommonUser>>['client'] };
  let token: { key: string; id: number };

  beforeAll(async () => {
    fixture = await startRelayFixture();
    channelId = await createChannel(fixture, {
      name: 'mj',
      type: 2,
      key: 'mj-secret',
      models: 'mj_imagine,mj_upscale,mj_variation,mj_modal',
    });
    user = await createCommonUser(fixture, 'painter', 1_000_000);
    token = await createToken(user.client, { unlimited_quota: false, remain_quota: 400_000 });
  });
  afterAll(() => fixture.close());

  it('submits, charges once and follows the task to SUCCESS', async () => {
    const submitted = await submitDrawing(fixture, token.key, 'imagine', {
      prompt: 'a red fox --fast [[mock:task-step-150]]',
      state: 'mine',
      accountFilter: { channelId: 'x' },
    });
    expect(submitted.status).toBe(200);
    expect(submitted.json).toMatchObject({ code: 1, description: '提交成功' });
    const id = submitted.json.result as string;
    const forwarded = fixture.mock.lastRequest()!;
    expect(forwarded.path).toBe('/mj/submit/imagine');
    expect(forwarded.headers['mj-api-secret']).toBe('mj-secret');
    expect(forwarded.body).not.toHaveProperty('accountFilter');

    expect(await userBalance(fixture, user.id)).toMatchObject({
      quota: 1_000_000 - IMAGINE,
      used_quota: IMAGINE,
    });
    expect(Number((await tokenRow(fixture, token.id)).remain_quota)).toBe(400_000 - IMAGINE);
    expect(await channelUsedQuota(fixture, channelId)).toBe(IMAGINE);
    const consume = (await settledLogs(fixture)).at(-1)!;
    expect(consume).toMatchObject({ model_name: 'mj_imagine', quota: IMAGINE, channel_id: channelId });
    expect(consume.content).toBe(`模型固定价格 0.10，分组倍率 1.00，操作 IMAGINE，ID ${id}`);

    const first = await relayGet(fixture, token.key, `/mj/task/${id}/fetch`);
    expect(first.json).toMatchObject({
      id,
      action: 'IMAGINE',
      status: 'SUBMITTED',
      progress: '0%',
      state: 'mine',
    });
    await sleep(350);
    await pollTasks(fixture);
    const done = await relayGet(fixture, token.key, `/mj/task/${id}/fetch`);
    expect(done.json).toMatchObject({ id, status: 'SUCCESS', progress: '100%', failReason: '' });
    expect(done.json.imageUrl).toBe(`http://localhost:3000/mj/image/${id}`);
    expect(done.json.buttons).toHaveLength(9);

    const image = await fetch(`${fixture.baseUrl}/mj/image/${id}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/png');

    const upscale = await submitDrawing(fixture, token.key, 'change', {
      taskId: id,
      action: 'UPSCALE',
      index: 2,
    });
    expect(upscale.json.code).toBe(1);
    expect(fixture.mock.lastRequest()!.body).toMatchObject({ taskId: id, action: 'UPSCALE' });
    expect((await userBalance(fixture, user.id)).quota).toBe(1_000_000 - IMAGINE - UPSCALE);
    const both = await listByCondition(fixture, token.key, { ids: [id, upscale.json.result, 'unknown'] });
    expect(both.json.map((task: { id: string }) => task.id).sort()).toEqual([id, upscale.json.result].sort());
  });

  it('refunds a failed task exactly once to the user and the token', async () => {
    const before = await userBalance(fixture, user.id);
    const tokenBefore = Number((await tokenRow(fixture, token.id)).remain_quota);
    const submitted = await submitDrawing(fixture, token.key, 'imagine', {
      prompt: 'doomed [[mock:task-step-0,task-fail]]',
    });
    const id = submitted.json.result as string;
    expect((await userBalance(fixture, user.id)).quota).toBe(before.quota - IMAGINE);
    // Three pollers (this node twice, another node once) see the failure at the same time.
    await Promise.all([pollTasks(fixture), otherPoller(fixture).pollOnce(), otherPoller(fixture).pollOnce()]);
    await pollTasks(fixture);
    const after = await userBalance(fixture, user.id);
    expect(after.quota).toBe(before.quota);
    expect(after.used_quota).toBe(before.used_quota);
    expect(Number((await tokenRow(fixture, token.id)).remain_quota)).toBe(tokenBefore);
    const task = await relayGet(fixture, token.key, `/mj/task/${id}/fetch`);
    expect(task.json).toMatchObject({
      status: 'FAILURE',
      progress: '100%',
      failReason: 'Mock scenario: the task failed upstream.',
    });
    const refunds = (await systemLogs(fixture, user.id)).filter((row) => row.content?.includes(id));
    expect(refunds).toHaveLength(1);
    expect(refunds[0]!.content).toBe(`构图失败 ${id}，补偿 $0.10`);
  });

  it('refuses follow-ups on unfinished or foreign tasks and short balances, without charging', async () => {
    const pending = await submitDrawing(fixture, token.key, 'imagine', {
      prompt: 'slow [[mock:task-step-60000]]',
    });
    const before = await userBalance(fixture, user.id);
    const early = await submitDrawing(fixture, token.key, 'simple-change', {
      content: `${pending.json.result} U1`,
    });
    expect(early.status).toBe(400);
    expect(early.json).toEqual({ description: 'task_status_not_success', type: 'upstream_error', code: 4 });
    const other = await createCommonUser(fixture, 'stranger', 10);
    const otherToken = await createToken(other.client);
    const foreign = await submitDrawing(fixture, otherToken.key, 'change', {
      taskId: pending.json.result,
      action: 'UPSCALE',
      index: 1,
    });
    expect(foreign.json).toMatchObject({ description: 'task_not_found', code: 4 });
    const poor = await submitDrawing(fixture, otherToken.key, 'imagine', { prompt: 'x' });
    expect(poor.json).toMatchObject({ description: 'quota_not_enough', code: 4 });
    const noPrompt = await submitDrawing(fixture, token.key, 'imagine', { prompt: '' });
    expect(noPrompt.json).toMatchObject({ description: 'prompt_is_required', code: 4 });
    const badBody = await submitDrawing(fixture, token.key, 'imagine', '[1,2]');
    expect(badBody.json).toMatchObject({ description: 'bind_request_body_failed', code: 4 });
    const unlisted = await relayGet(fixture, otherToken.key, `/mj/task/${pending.json.result}/fetch`);
    expect(unlisted.json).toMatchObject({ description: 'task_no_found' });
    expect(await userBalance(fixture, user.id)).toEqual(before);
  });

  it('stores refused submits as failures without charging, and refuses unpriced models', async () => {
    const before = await userBalance(fixture, user.id);
    const banned = await submitDrawing(fixture, token.key, 'imagine', {
      prompt: 'nope [[mock:submit-code-24]]',
    });
    expect(banned.json).toMatchObject({ code: 24, description: '可能包含敏感词' });
    const queued = await submitDrawing(fixture, token.key, 'imagine', {
      prompt: 'queued [[mock:submit-code-22]]',
    });
    expect(queued.json.code).toBe(1);
    expect((await userBalance(fixture, user.id)).quota).toBe(before.quota - IMAGINE);
    const rows = envelope(await fixture.root.get(`/api/mj/?channel_id=${channelId}&page_size=100`)).data;
    expect(rows.find((row: { code: number }) => row.code === 24)).toMatchObject({
      status: 'FAILURE',
      progress: '100%',
      quota: 0,
      fail_reason: '可能包含敏感词',
    });
    await setOption(fixture, 'ModelPrice', JSON.stringify({ mj_upscale: 0.05 }));
    const unpriced = await submitDrawing(fixture, token.key, 'imagine', { prompt: 'x' });
    expect(unpriced.json.description).toMatch(/模型 mj_imagine 倍率或价格未配置/);
    await setOption(fixture, 'ModelPrice', JSON.stringify({ mj_imagine: 0.1, mj_upscale: 0.05 }));
  });

  it('lists drawing tasks for admins and users with filters and paging, as bare arrays', async () => {
    const everything = envelope(
      await fixture.root.get(`/api/mj/?channel_id=${channelId}&page_size=100`),
    ).data;
    expect(everything.length).toBeGreaterThanOrEqual(6);
    const admin = envelope(await fixture.root.get(`/api/mj/?p=0&page_size=2&channel_id=${channelId}`));
    expect(admin.success).toBe(true);
    expect(admin.data).toHaveLength(2);
    const second = envelope(await fixture.root.get(`/api/mj/?p=1&page_size=2&channel_id=${channelId}`));
    expect(second.data[0].id).toBeLessThan(admin.data[1].id);
    const none = envelope(await fixture.root.get(`/api/mj/?channel_id=${channelId + 1000}`));
    expect(none.data).toEqual([]);
    const target = admin.data[0];
    const byId = envelope(await user.client.get(`/api/mj/self?mj_id=${target.mj_id}`));
    expect(byId.data.map((row: { mj_id: string }) => row.mj_id)).toEqual([target.mj_id]);
    const future = Date.now() + 3_600_000;
    const later = envelope(await user.client.get(`/api/mj/self?start_timestamp=${future}`));
    expect(later.data).toEqual([]);
    const seconds = envelope(
      await user.client.get(`/api/mj/self?end_timestamp=${Math.floor(future / 1000)}&page_size=100`),
    );
    expect(seconds.data).toHaveLength(everything.length);
    const stranger = await fixture.t.login('stranger', 'password123');
    expect(envelope(await stranger.get('/api/mj/self')).data).toEqual([]);
    expect(envelope(await user.client.get('/api/mj/')).success).toBe(false);
    // Non-integer values read as 0 (strconv.Atoi): the first page, no time bound.
    const odd = envelope(await user.client.get('/api/mj/self?p=abc&start_timestamp=NaN&end_timestamp=NaN'));
    expect(odd.data.map((row: { id: number }) => row.id)).toEqual(
      everything.slice(0, 10).map((row: { id: number }) => row.id),
    );
  });
});

/** POST /mj/task/list-by-condition. */
function listByCondition(fixture: RelayFixture, key: string, body: unknown) {
  return relayPost(fixture, key, body, { path: '/mj/task/list-by-condition' });
}
