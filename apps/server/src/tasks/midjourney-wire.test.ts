import { describe, expect, it } from 'vitest';
import type { MidjourneyRow } from '../db/repositories/midjourney-repository.ts';
import { actionOfSubmit, modelOfAction, parseCustomId, parseSimpleChange } from './midjourney-actions.ts';
import {
  buildUpstreamBody,
  NOTIFY_HOOK_PROPERTY,
  notifyHookOf,
  readSubmitResponse,
  readUpstreamTasks,
  toMidjourneyDto,
} from './midjourney-wire.ts';
import { MIDJOURNEY_TIMEOUT_REASON, midjourneyUpdateOf } from './task-progress.ts';

const settings = {
  accountFilter: false,
  notify: false,
  modeClear: true,
  forwardUrl: true,
  serverAddress: 'https://gw.test',
};

const row = (fields: Partial<MidjourneyRow> = {}): MidjourneyRow => ({
  id: 1,
  code: 1,
  user_id: 2,
  action: 'IMAGINE',
  mj_id: '123',
  prompt: 'a cat',
  prompt_en: '',
  description: '提交成功',
  state: '',
  submit_time: 1_000_000,
  start_time: 0,
  finish_time: 0,
  image_url: '',
  status: 'SUBMITTED',
  progress: '0%',
  fail_reason: '',
  channel_id: 3,
  quota: 50_000,
  token_id: 4,
  buttons: null,
  properties: JSON.stringify({ [NOTIFY_HOOK_PROPERTY]: 'https://hook.test/x' }),
  ...fields,
});

const item = (fields: Record<string, unknown>) =>
  readUpstreamTasks(JSON.stringify([{ id: '123', ...fields }]))![0]!;

describe('midjourney actions', () => {
  it('maps actions to models, custom ids and simple changes', () => {
    expect(modelOfAction('IMAGINE')).toBe('mj_imagine');
    expect(modelOfAction('SWAP_FACE')).toBe('swap_face');
    expect(parseCustomId('MJ::JOB::upsample::2::abc', 't')).toEqual({
      action: 'UPSCALE',
      index: 2,
      taskId: 't',
    });
    expect(parseCustomId('MJ::JOB::low_variation::1::abc', 't')).toMatchObject({ action: 'LOW_VARIATION' });
    expect(parseCustomId('MJ::CustomZoom::abc', 't')).toMatchObject({ action: 'CUSTOM_ZOOM' });
    expect(parseCustomId('MJ::JOB::upsample::x::abc', 't')).toEqual({ error: 'index_parse_failed' });
    expect(parseSimpleChange('123 V3')).toEqual({ action: 'VARIATION', index: 3, taskId: '123' });
    expect(parseSimpleChange('123 R')).toMatchObject({ action: 'REROLL' });
    expect(parseSimpleChange('123 U9')).toEqual({ error: 'content_parse_failed' });
    expect(actionOfSubmit('change', { taskId: '1', action: 'upscale', index: 0 })).toEqual({
      error: 'index_is_required',
    });
    expect(actionOfSubmit('swap-face', { sourceBase64: 'a' })).toMatchObject({ error: expect.any(String) });
  });
});

describe('midjourney wire', () => {
  it('builds the upstream body by the Mj options', () => {
    const body = { prompt: 'cat --fast --relax', accountFilter: { a: 1 }, notifyHook: 'https://hook.test' };
    expect(buildUpstreamBody(body, settings)).toEqual({ prompt: 'cat  ' });
    expect(buildUpstreamBody(body, { ...settings, accountFilter: true, modeClear: false })).toEqual({
      prompt: 'cat --fast --relax',
      accountFilter: { a: 1 },
    });
    expect(notifyHookOf({ notifyHook: 'ftp://x' })).toBe('');
    expect(notifyHookOf({ notifyHook: 'http://127.0.0.1:9/h' })).toBe('http://127.0.0.1:9/h');
  });

  it('reads submit answers, including upload results and junk', () => {
    expect(readSubmitResponse('{"code":1,"description":"ok","result":"42"}')).toMatchObject({
      code: 1,
      result: '42',
    });
    expect(readSubmitResponse('{"code":1,"result":["http://x/a.png"]}')).toMatchObject({
      result: 'http://x/a.png',
    });
    expect(readSubmitResponse('<html>')).toBeUndefined();
    expect(readSubmitResponse('{"error":"x"}')).toBeUndefined();
  });

  it('shows the gateway image URL and hides the notify hook', () => {
    const dto = toMidjourneyDto(row({ image_url: 'http://up/x.png', status: 'IN_PROGRESS' }), settings, 7);
    expect(dto.imageUrl).toBe('https://gw.test/mj/image/123?rand=7');
    expect(dto.properties).toEqual({});
    const done = toMidjourneyDto(row({ image_url: 'http://up/x.png', status: 'SUCCESS' }), settings);
    expect(done.imageUrl).toBe('https://gw.test/mj/image/123');
    expect(
      toMidjourneyDto(row({ image_url: 'http://up/x.png' }), { ...settings, forwardUrl: false }).imageUrl,
    ).toBe('http://up/x.png');
  });
});

describe('midjourney progress', () => {
  it('finishes successes and failures and keeps the notify hook', () => {
    const success = midjourneyUpdateOf(
      row(),
      item({ status: 'SUCCESS', progress: '100%', imageUrl: 'http://i' }),
      1_000_500,
    );
    expect(success).toMatchObject({
      changed: true,
      failed: false,
      changes: { status: 'SUCCESS', progress: '100%' },
    });
    expect(JSON.parse(success.changes.properties as string)[NOTIFY_HOOK_PROPERTY]).toBe(
      'https://hook.test/x',
    );
    const failure = midjourneyUpdateOf(
      row(),
      item({ status: 'FAILURE', progress: '50%', failReason: 'boom' }),
      1_000_500,
    );
    expect(failure).toMatchObject({
      failed: true,
      changes: { status: 'FAILURE', progress: '100%', fail_reason: 'boom' },
    });
    const reasonOnly = midjourneyUpdateOf(
      row(),
      item({ status: 'IN_PROGRESS', progress: '10%', failReason: 'x' }),
      1_000_500,
    );
    expect(reasonOnly.failed).toBe(true);
    const stale = midjourneyUpdateOf(
      row(),
      item({ status: 'IN_PROGRESS', progress: '50%' }),
      1_000_000 + 3_600_001,
    );
    expect(stale.changes).toMatchObject({ status: 'FAILURE', fail_reason: MIDJOURNEY_TIMEOUT_REASON });
    const same = midjourneyUpdateOf(
      row({ properties: '{}', status: 'SUBMITTED', code: 1 }),
      item({ status: 'SUBMITTED', progress: '0%', properties: {} }),
      1_000_100,
    );
    expect(same.changed).toBe(false);
  });
});
