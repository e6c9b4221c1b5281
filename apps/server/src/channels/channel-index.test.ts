import { describe, expect, it } from 'vitest';
import type { IndexedChannel } from '../db/repositories/channel-repository.ts';
import { buildChannelIndex, ChannelIndex } from './channel-index.ts';

const row = (id: number, overrides: Partial<IndexedChannel> = {}): IndexedChannel =>
  ({
    id,
    type: 1,
    key: `key-${id}`,
    name: `channel ${id}`,
    base_url: '',
    other: null,
    models: 'gpt-4o,gpt-4o-mini',
    group: 'default',
    priority: 0,
    weight: 0,
    model_mapping: null,
    status_code_mapping: '',
    setting: null,
    param_override: null,
    header_override: null,
    openai_organization: null,
    auto_ban: 1,
    tag: null,
    ...overrides,
  }) as IndexedChannel;

describe('buildChannelIndex', () => {
  it('indexes group × model and parses JSON columns once', () => {
    const index = buildChannelIndex([
      row(1, {
        group: 'default,vip',
        model_mapping: '{"gpt-4o":"gpt-4o-2024-11-20"}',
        status_code_mapping: '{"404":"500"}',
      }),
      row(2, { models: 'gpt-4o', group: 'vip' }),
    ]);
    expect(
      index.byGroup
        .get('default')
        ?.get('gpt-4o')
        ?.map((c) => c.id),
    ).toEqual([1]);
    expect(
      index.byGroup
        .get('vip')
        ?.get('gpt-4o')
        ?.map((c) => c.id),
    ).toEqual([1, 2]);
    expect(index.byId.get(1)?.runtime.modelMapping).toEqual({ 'gpt-4o': 'gpt-4o-2024-11-20' });
    expect(index.byId.get(1)?.statusCodeMapping.get(404)).toBe(500);
  });

  it('leaves out channel types without an adapter and tolerates broken JSON', () => {
    const index = buildChannelIndex([row(1, { type: 9999 }), row(2, { model_mapping: '{broken' })]);
    expect(
      index.byGroup
        .get('default')
        ?.get('gpt-4o')
        ?.map((c) => c.id),
    ).toEqual([2]);
    expect(index.byId.get(2)?.runtime.modelMapping).toBeUndefined();
  });
});

describe('ChannelIndex', () => {
  it('excludes a channel until the next rebuild', async () => {
    const index = new ChannelIndex(async () => [row(1), row(2)]);
    await index.rebuild();
    index.exclude(1);
    expect(index.candidates('default', 'gpt-4o').map((c) => c.id)).toEqual([2]);
    expect(index.get(1)).toBeUndefined();
    expect(index.modelsOf(['default'])).toEqual(['gpt-4o', 'gpt-4o-mini']);
    await index.rebuild();
    expect(index.candidates('default', 'gpt-4o').map((c) => c.id)).toEqual([1, 2]);
  });

  it('makes callers wait for a rebuild that started after an announced change', async () => {
    let rows = [row(1)];
    let release: () => void = () => {};
    const index = new ChannelIndex(async () => {
      const snapshot = rows;
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return snapshot;
    });
    index.refresh(() => {});
    expect(index.pending).toBeUndefined();
    // A change announced while a rebuild is loading waits for the next one.
    rows = [row(1), row(2)];
    index.refresh(() => {}, true);
    const pending = index.pending;
    expect(pending).toBeDefined();
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(index.pending).toBe(pending);
    release();
    await pending;
    expect(index.candidates('default', 'gpt-4o').map((c) => c.id)).toEqual([1, 2]);
    expect(index.pending).toBeUndefined();
  });
});
