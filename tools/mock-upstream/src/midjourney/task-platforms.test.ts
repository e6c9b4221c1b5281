import { describe, expect, it } from 'vitest';
import { testFetch, useMockUpstream } from '../testing-helpers.ts';
import { parseTaskPlan, TaskPlanError } from './task-timeline.ts';

const mock = useMockUpstream();
const mjHeaders = { 'mj-api-secret': 'mj-key', 'content-type': 'application/json' };
const sunoHeaders = { authorization: 'Bearer suno-key', 'content-type': 'application/json' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function post(path: string, body: unknown, headers: Record<string, string>) {
  const response = await testFetch(`${mock.current.url}${path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(body),
  });
  return { status: response.status, json: await response.json() };
}

describe('task plans', () => {
  it('parses the task tokens and refuses unknown ones', () => {
    expect(parseTaskPlan('task-step-50,task-fail')).toMatchObject({ stepMs: 50, fail: true, submitCode: 1 });
    expect(parseTaskPlan('submit-code-22')).toMatchObject({ submitCode: 22, fail: false });
    expect(parseTaskPlan(undefined).stepMs).toBe(1000);
    expect(() => parseTaskPlan('slow-stream-5')).toThrow(TaskPlanError);
  });
});

describe('midjourney-proxy mode', () => {
  it('moves an imagine task from SUBMITTED through IN_PROGRESS to SUCCESS', async () => {
    const submitted = await post(
      '/__mock/task-step-400/mj/submit/imagine',
      { prompt: 'a cat', state: 's1' },
      mjHeaders,
    );
    expect(submitted.json).toMatchObject({ code: 1, description: '提交成功' });
    const id = submitted.json.result as string;
    const first = await testFetch(`${mock.current.url}/mj/task/${id}/fetch`, { headers: mjHeaders });
    expect(await first.json()).toMatchObject({
      id,
      status: 'SUBMITTED',
      progress: '0%',
      action: 'IMAGINE',
      state: 's1',
    });
    await sleep(420);
    const middle = await post('/mj/task/list-by-condition', { ids: [id, 'unknown'] }, mjHeaders);
    expect(middle.json).toHaveLength(1);
    expect(middle.json[0]).toMatchObject({ status: 'IN_PROGRESS', progress: '50%' });
    await sleep(420);
    const done = await post('/mj/task/list-by-condition', { ids: [id] }, mjHeaders);
    expect(done.json[0]).toMatchObject({ status: 'SUCCESS', progress: '100%', failReason: '' });
    expect(done.json[0].imageUrl).toMatch(/\/__files\/mock-image\.png$/);
    expect(done.json[0].buttons[0].customId).toBe(`MJ::JOB::upsample::1::${id}`);
  });

  it('fails a task on task-fail, answers submit codes, and checks the secret', async () => {
    const submitted = await post(
      '/mj/submit/imagine',
      { prompt: 'a dog [[mock:task-step-0,task-fail]]' },
      mjHeaders,
    );
    const [task] = (await post('/mj/task/list-by-condition', { ids: [submitted.json.result] }, mjHeaders))
      .json;
    expect(task).toMatchObject({ status: 'FAILURE', failReason: 'Mock scenario: the task failed upstream.' });
    const queued = await post('/__mock/submit-code-22/mj/submit/imagine', { prompt: 'x' }, mjHeaders);
    expect(queued.json.code).toBe(22);
    const refused = await post('/__mock/submit-code-24/mj/submit/imagine', { prompt: 'x' }, mjHeaders);
    expect(refused.json).toMatchObject({ code: 24, result: null });
    const noKey = await post('/mj/submit/imagine', { prompt: 'x' }, { 'content-type': 'application/json' });
    expect(noKey.status).toBe(401);
    const unknownToken = await post('/__mock/bogus/mj/submit/imagine', { prompt: 'x' }, mjHeaders);
    expect(unknownToken.status).toBe(400);
  });

  it('accepts follow-up actions only for known tasks', async () => {
    const submitted = await post('/mj/submit/imagine', { prompt: 'p' }, mjHeaders);
    const change = await post(
      '/mj/submit/change',
      { taskId: submitted.json.result, action: 'UPSCALE', index: 1 },
      mjHeaders,
    );
    expect(change.json.code).toBe(1);
    const unknown = await post(
      '/mj/submit/change',
      { taskId: 'nope', action: 'UPSCALE', index: 1 },
      mjHeaders,
    );
    expect(unknown.json).toMatchObject({ code: 4, description: 'task_not_found' });
  });
});

describe('suno mode', () => {
  it('submits music and lyrics and moves them to SUCCESS or FAILURE', async () => {
    const music = await post(
      '/__mock/task-step-0/suno/submit/music',
      { prompt: 'a song', title: 'T' },
      sunoHeaders,
    );
    expect(music.json).toMatchObject({ code: 'success' });
    const lyrics = await post(
      '/__mock/task-step-0,task-fail/suno/submit/lyrics',
      { prompt: 'words' },
      sunoHeaders,
    );
    const fetched = await post('/suno/fetch', { ids: [music.json.data, lyrics.json.data] }, sunoHeaders);
    expect(fetched.json.code).toBe('success');
    const [song, words] = fetched.json.data;
    expect(song).toMatchObject({ action: 'MUSIC', status: 'SUCCESS', fail_reason: '' });
    expect(song.data).toHaveLength(2);
    expect(words).toMatchObject({ action: 'LYRICS', status: 'FAILURE', data: null });
    const one = await testFetch(`${mock.current.url}/suno/fetch/${music.json.data}`, {
      headers: sunoHeaders,
    });
    expect((await one.json()).data.task_id).toBe(music.json.data);
    const noKey = await post('/suno/submit/music', { prompt: 'x' }, { 'content-type': 'application/json' });
    expect(noKey.status).toBe(401);
  });
});
