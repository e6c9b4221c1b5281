import { describe, expect, it } from 'vitest';
import type { TaskRow } from '../db/repositories/task-repository.ts';
import { readSunoFetchResponse, readSunoSubmit, readSunoSubmitResponse, toSunoTaskDto } from './suno-wire.ts';
import { sunoUpdateOf } from './task-progress.ts';

const row = (fields: Partial<TaskRow> = {}): TaskRow => ({
  id: 1,
  created_at: 100,
  updated_at: 100,
  task_id: 't1',
  platform: 'suno',
  user_id: 2,
  channel_id: 3,
  token_id: 4,
  quota: 50_000,
  action: 'MUSIC',
  status: 'SUBMITTED',
  fail_reason: '',
  submit_time: 100,
  start_time: 0,
  finish_time: 0,
  progress: '0%',
  properties: null,
  data: null,
  ...fields,
});

describe('suno wire', () => {
  it('validates submits', () => {
    expect(readSunoSubmit('music', { prompt: 'p' })).toMatchObject({
      action: 'MUSIC',
      model: 'suno_music',
      body: { mv: 'chirp-v3-0' },
    });
    expect(readSunoSubmit('lyrics', {})).toEqual({ error: 'prompt_empty' });
    expect(readSunoSubmit('video', {})).toEqual({ error: 'invalid_action' });
    expect(readSunoSubmit('music', { continue_clip_id: 'c', task_id: 't' })).toMatchObject({
      originTaskId: 't',
    });
  });

  it('reads upstream answers', () => {
    expect(readSunoSubmitResponse('{"code":"success","data":"abc"}')).toEqual({ taskId: 'abc' });
    expect(readSunoSubmitResponse('{"code":"fail","message":"busy"}')).toEqual({
      code: 'fail',
      message: 'busy',
    });
    expect(readSunoSubmitResponse('nope')).toMatchObject({ code: 'unmarshal_response_body_failed' });
    expect(
      readSunoFetchResponse('{"code":"success","data":[{"task_id":"t1","status":"SUCCESS","data":[1]}]}'),
    ).toEqual([
      {
        taskId: 't1',
        status: 'SUCCESS',
        failReason: '',
        submitTime: 0,
        startTime: 0,
        finishTime: 0,
        progress: '',
        data: [1],
      },
    ]);
    expect(readSunoFetchResponse('{"code":"error"}')).toBeUndefined();
    expect(toSunoTaskDto(row({ data: '[1]' }))).toMatchObject({ task_id: 't1', data: [1], fail_reason: '' });
  });

  it('derives progress, success and failure', () => {
    const base = { taskId: 't1', submitTime: 100, startTime: 0, finishTime: 0, progress: '', data: null };
    expect(sunoUpdateOf(row(), { ...base, status: 'IN_PROGRESS', failReason: '' }, 200)).toMatchObject({
      changed: true,
      failed: false,
      changes: { progress: '50%' },
    });
    expect(
      sunoUpdateOf(row(), { ...base, status: 'SUCCESS', failReason: '', data: [1] }, 200).changes,
    ).toMatchObject({
      progress: '100%',
      data: '[1]',
    });
    expect(sunoUpdateOf(row(), { ...base, status: 'IN_PROGRESS', failReason: 'bad' }, 200)).toMatchObject({
      failed: true,
      changes: { status: 'FAILURE', progress: '100%', fail_reason: 'bad', finish_time: 200 },
    });
    expect(sunoUpdateOf(row(), { ...base, status: 'SUBMITTED', failReason: '' }, 200).changed).toBe(false);
  });
});
