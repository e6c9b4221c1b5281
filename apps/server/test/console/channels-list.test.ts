import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type ConsoleClient, envelope, type TestApp } from '../helper.ts';
import { clearChannels, createChannel } from './channels-support.ts';

/** A list entry as the tests read it: a channel, or a tag group when `tag_group` is set. */
interface ListItem {
  id: number;
  name: string;
  tag: string;
  tag_group?: true;
  channels: Array<{ id: number; name: string }>;
}

describe('channels API: list, search, tag mode', () => {
  let t: TestApp;
  let root: ConsoleClient;
  beforeAll(async () => {
    t = await buildTestApp();
    root = await t.login('root', '123456');
  });
  afterAll(async () => t.close());
  beforeEach(async () => clearChannels(t));

  const list = async (url: string) => {
    const response = await root.get(url);
    expect(response.body).not.toContain('secret-');
    const reply = envelope(response);
    expect(reply.success).toBe(true);
    return reply.data as { items: ListItem[]; total: number; page: number; page_size: number };
  };
  const names = (items: Array<{ name: string }>) => items.map((item) => item.name);

  /** Five channels: a(p1) b(p5) c(p5) d(p0) e(p-3), created in that order. */
  const seed = async () => {
    const ids: Record<string, number> = {};
    for (const [name, priority] of [
      ['a', 1],
      ['b', 5],
      ['c', 5],
      ['d', 0],
      ['e', -3],
    ] as const) {
      ids[name] = await createChannel(root, { name, priority, key: `secret-${name}` });
    }
    return ids;
  };

  it('pages by priority desc then id desc, p from 0, with the total', async () => {
    await seed();
    const first = await list('/api/channel/?p=0&page_size=2');
    expect(first).toMatchObject({ total: 5, page: 0, page_size: 2 });
    expect(names(first.items)).toEqual(['c', 'b']);
    expect(names((await list('/api/channel/?p=1&page_size=2')).items)).toEqual(['a', 'd']);
    expect(names((await list('/api/channel/?p=2&page_size=2')).items)).toEqual(['e']);
    expect((await list('/api/channel/?p=3&page_size=2')).items).toEqual([]);
    for (const item of first.items) expect(item).not.toHaveProperty('key');
  });

  it('orders by id desc with id_sort=true and clamps the page size', async () => {
    await seed();
    expect(names((await list('/api/channel/?id_sort=true')).items)).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect((await list('/api/channel/')).page_size).toBe(10);
    expect((await list('/api/channel/?page_size=1000')).page_size).toBe(100);
    expect((await list('/api/channel/?page_size=0')).page_size).toBe(10);
    expect((await list('/api/channel/?p=-4')).page).toBe(0);
  });

  it('refuses malformed query values with the envelope', async () => {
    for (const url of [
      '/api/channel/?p=x',
      '/api/channel/?p=99999999999999999999',
      '/api/channel/?page_size=1.5',
      '/api/channel/search?group=' + 'g'.repeat(65),
    ]) {
      const response = await root.get(url);
      expect(response.statusCode).toBeLessThan(500);
      expect(envelope(response).success).toBe(false);
    }
  });

  it('groups channels sharing a tag in tag_mode and pages over the entries', async () => {
    const tA = await createChannel(root, { name: 'tA', tag: 't1', priority: 5, key: 'secret-1' });
    const tB = await createChannel(root, { name: 'tB', tag: 't1', priority: 1, key: 'secret-2', status: 2 });
    await createChannel(root, { name: 'plain', priority: 3, key: 'secret-3' });
    await createChannel(root, { name: 'tD', tag: 't2', priority: 0, key: 'secret-4' });
    await createChannel(root, { name: 'top', priority: 10, key: 'secret-5' });

    const all = await list('/api/channel/?tag_mode=true');
    expect(all.total).toBe(4);
    expect(all.items.map((item) => (item.tag_group ? `#${item.tag}` : item.name))).toEqual([
      'top',
      '#t1',
      'plain',
      '#t2',
    ]);
    const group = all.items[1];
    expect(group).toMatchObject({
      tag_group: true,
      tag: 't1',
      channel_count: 2,
      enabled_count: 1,
      priority: 5,
    });
    expect(group!.channels.map((channel) => channel.id)).toEqual([tA, tB]);
    for (const channel of group!.channels) expect(channel).not.toHaveProperty('key');
    expect(all.items[0]).not.toHaveProperty('tag_group');

    const second = await list('/api/channel/?tag_mode=true&p=1&page_size=2');
    expect(second).toMatchObject({ total: 4, page: 1, page_size: 2 });
    expect(second.items.map((item) => (item.tag_group ? `#${item.tag}` : item.name))).toEqual([
      'plain',
      '#t2',
    ]);

    // id_sort: entries by their highest id (t2's only member tD is newer than t1's members).
    const byId = await list('/api/channel/?tag_mode=true&id_sort=true');
    expect(byId.items.map((item) => (item.tag_group ? `#${item.tag}` : item.name))).toEqual([
      'top',
      '#t2',
      'plain',
      '#t1',
    ]);
    expect(byId.items[3]!.channels.map((channel) => channel.id)).toEqual([tB, tA]);
  });

  it('searches by keyword: exact id, name or key substring', async () => {
    const ids = await seed();
    await createChannel(root, { name: 'Alpha Relay', key: 'secret-zeta-777' });
    const search = async (query: string) => names((await list(`/api/channel/search?${query}`)).items);
    expect(await search(`keyword=${ids.c}`)).toContain('c');
    expect(await search(`keyword=${ids.c}`)).not.toContain('b');
    expect(await search('keyword=alpha')).toEqual(['Alpha Relay']);
    expect(await search('keyword=zeta-7')).toEqual(['Alpha Relay']);
    expect(await search('keyword=secret-')).toHaveLength(6);
    expect(await search('keyword=%25')).toEqual([]);
    expect(await search('keyword=_')).toEqual([]);
    expect(await search('keyword=nothing-matches')).toEqual([]);
    expect(await search('keyword=')).toHaveLength(6);
    const paged = await list('/api/channel/search?keyword=secret-&p=1&page_size=4&id_sort=true');
    expect(paged).toMatchObject({ total: 6, page: 1, page_size: 4 });
    expect(names(paged.items)).toEqual(['b', 'a']);
  });

  it('searches by group (one of the comma groups) and by model (substring)', async () => {
    await createChannel(root, { name: 'g1', group: 'default,vip', models: 'gpt-4o,claude-3-haiku' });
    await createChannel(root, { name: 'g2', group: 'vipx', models: 'gemini-2.0-flash' });
    await createChannel(root, { name: 'g3', group: 'svip,vip,free', models: 'gpt-4o-mini' });
    await createChannel(root, { name: 'g4', group: 'vip', models: 'deepseek-chat' });
    const search = async (query: string) =>
      names((await list(`/api/channel/search?id_sort=true&${query}`)).items);
    expect(await search('group=vip')).toEqual(['g4', 'g3', 'g1']);
    expect(await search('group=vipx')).toEqual(['g2']);
    expect(await search('group=free')).toEqual(['g3']);
    expect(await search('group=vi')).toEqual([]);
    expect(await search('model=gpt-4o')).toEqual(['g3', 'g1']);
    expect(await search('model=HAIKU')).toEqual(['g1']);
    expect(await search('model=gpt-4o&group=default')).toEqual(['g1']);
    expect(await search('model=gpt&keyword=g3')).toEqual(['g3']);
  });

  it('applies the search filter inside tag groups in tag_mode', async () => {
    await createChannel(root, { name: 'x1', tag: 'tx', models: 'gpt-4o' });
    await createChannel(root, { name: 'x2', tag: 'tx', models: 'claude-3-haiku' });
    await createChannel(root, { name: 'y1', models: 'gpt-4o' });
    const result = await list('/api/channel/search?model=gpt&tag_mode=true');
    expect(result.total).toBe(2);
    const group = result.items.find((item) => item.tag_group);
    expect(group!.channels.map((channel) => channel.name)).toEqual(['x1']);
  });
});
