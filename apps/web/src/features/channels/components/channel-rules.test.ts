import type { ChannelView } from '@switchyard/shared';
import { describe, expect, it } from 'vitest';
import { buildChannelBody, buildTagEditBody, newChannelValues } from './channel-form-rules';
import {
  addCustomModels,
  autoDisableInfo,
  readFetchedModels,
  responseTimeColor,
  toRows,
} from './channel-rules';

describe('channel list rules', () => {
  it('colours response times: untested, ≤1 s, ≤3 s, ≤5 s, beyond', () => {
    expect([0, 1, 1000, 1001, 3000, 3001, 5000, 5001].map(responseTimeColor)).toEqual([
      'default',
      'green',
      'green',
      'lime',
      'lime',
      'gold',
      'gold',
      'red',
    ]);
  });

  it('reads the auto-disable reason and time', () => {
    expect(autoDisableInfo({ other_info: '{"status_reason":"HTTP 401","status_time":5}' })).toEqual({
      reason: 'HTTP 401',
      time: 5,
    });
    expect(autoDisableInfo({ other_info: '' })).toBeNull();
    expect(autoDisableInfo({ other_info: 'text' })).toBeNull();
  });

  it('groups a tag-mode page (a flat array) into parent rows, in the order tags appear', () => {
    const channel = (id: number, tag: string, status = 1) =>
      ({ id, tag, status, weight: id, priority: 10 - id }) as ChannelView;
    const flat = [channel(1, 'east'), channel(2, 'west', 2), channel(3, 'east', 2)];
    expect(toRows(flat, false).map((row) => row.rowKey)).toEqual(['1', '2', '3']);
    const rows = toRows(flat, true);
    expect(rows.map((row) => row.rowKey)).toEqual(['tag:east', 'tag:west']);
    expect(rows[0]).toMatchObject({
      kind: 'tag',
      channel_count: 2,
      enabled_count: 1,
      priority: 9,
      weight: 3,
    });
    expect(rows[1]).toMatchObject({ kind: 'tag', channel_count: 1, enabled_count: 0 });
    expect(toRows([channel(4, '')], true)).toMatchObject([{ kind: 'channel', rowKey: '4' }]);
  });

  it('adds custom models but refuses duplicates, and reads fetched lists', () => {
    expect(addCustomModels(['a'], ' b, c ,,')).toEqual({ models: ['a', 'b', 'c'] });
    expect(addCustomModels(['a'], 'b,a')).toEqual({ error: 'duplicate' });
    expect(readFetchedModels(['x', { id: 'y' }])).toEqual(['x', 'y']);
    expect(readFetchedModels({ data: [] })).toBeNull();
  });
});

describe('channel editor rules', () => {
  const valid = { ...newChannelValues(), name: 'mock', key: 'sk-1', models: ['gpt-4o'] };

  it('has the spec defaults', () => {
    expect(newChannelValues()).toMatchObject({
      type: 1,
      auto_ban: true,
      groups: ['default'],
      priority: 0,
      weight: 0,
    });
  });

  it('requires name and key on create, a model, and valid JSON fields', () => {
    expect(buildChannelBody({ ...valid, key: '' }, true)).toEqual({ error: 'nameAndKey' });
    expect(buildChannelBody({ ...valid, key: '' }, false)).toHaveProperty('body');
    expect(buildChannelBody({ ...valid, name: ' ' }, false)).toEqual({ error: 'nameAndKey' });
    expect(buildChannelBody({ ...valid, models: [] }, true)).toEqual({ error: 'modelsRequired' });
    expect(buildChannelBody({ ...valid, model_mapping: '{bad' }, true)).toEqual({ error: 'modelMapping' });
    expect(buildChannelBody({ ...valid, status_code_mapping: '[1]' }, true)).toEqual({
      error: 'statusCodeMapping',
    });
    expect(buildChannelBody({ ...valid, setting: 'x' }, true)).toEqual({ error: 'setting' });
    expect(buildChannelBody({ ...valid, priority: -1000 }, true)).toEqual({ error: 'priorityMin' });
    expect(buildChannelBody({ ...valid, models: 'a' as unknown as string[] }, true)).toEqual({
      error: 'resubmit',
    });
  });

  it('normalizes the body: slash, v2.1, weight, empty numbers, batch mode, comma strings', () => {
    const result = buildChannelBody(
      {
        ...valid,
        base_url: 'http://up.example/ ',
        groups: ['default', 'vip'],
        models: ['a', 'b', 'a'],
        weight: -4,
        priority: null,
        batch: true,
        key: 'k1\nk2',
      },
      true,
    );
    expect(result).toEqual({
      body: expect.objectContaining({
        base_url: 'http://up.example',
        group: 'default,vip',
        models: 'a,b',
        weight: 0,
        mode: 'batch',
        key: 'k1\nk2',
        auto_ban: 1,
      }),
    });
    expect('body' in result && 'priority' in result.body).toBe(false);
    const spark = buildChannelBody({ ...valid, type: 18 }, true);
    expect('body' in spark && spark.body.other).toBe('v2.1');
    const update = buildChannelBody({ ...valid, key: '' }, false);
    expect('body' in update && 'key' in update.body).toBe(false);
  });
});

describe('tag editor rules', () => {
  const empty = { new_tag: 'east', models: [], groups: [], model_mapping: '', priority: '', weight: '' };

  it('refuses an edit that changes nothing', () => {
    expect(buildTagEditBody('east', empty)).toEqual({ error: 'nothingChanged' });
  });

  it('checks priority and weight', () => {
    expect(buildTagEditBody('east', { ...empty, priority: '1.5' })).toEqual({ error: 'priorityInteger' });
    expect(buildTagEditBody('east', { ...empty, weight: '-1' })).toEqual({ error: 'weightNonNegative' });
    expect(buildTagEditBody('east', { ...empty, model_mapping: 'nope' })).toEqual({ error: 'modelMapping' });
  });

  it('sends only filled fields; an empty new tag dissolves the tag', () => {
    expect(buildTagEditBody('east', { ...empty, new_tag: '', priority: '-3', models: ['a', 'b'] })).toEqual({
      body: { tag: 'east', new_tag: '', priority: -3, models: 'a,b' },
    });
  });
});
