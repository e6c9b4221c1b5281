import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type ConsoleClient, envelope, type TestApp } from '../helper.ts';
import { clearChannels, createChannel } from './channels-support.ts';

/** A list entry as the tests read it: every list answers a bare array of channels. */
interface ListItem {
  id: number;
  name: string;
  tag: string;
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
    expect(Array.isArray(reply.data)).toBe(true);
    return reply.data as ListItem[];
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

  it('pages by priority desc then id desc, p from 0, as a bare array', async () => {
    await seed();
    const first = await list('/api/channel/?p=0&page_size=2');
    expect(names(first)).toEqual(['c', 'b']);
    expect(names(await list('/api/channel/?p=1&page_size=2'))).toEqual(['a', 'd']);
    expect(names(await list('/api/channel/?p=2&page_size=2'))).toEqual(['e']);
    expect(await list('/api/channel/?p=3&page_size=2')).toEqual([]);
    for (const item of first) expect(item).not.toHaveProperty('key');
  });

  it('orders by id desc with id_sort=true and clamps the page size', async () => {
    await seed();
    expect(names(await list('/api/channel/?id_sort=true'))).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(await list('/api/channel/?page_size=1')).toHaveLength(1);
    expect(await list('/api/channel/?page_size=1000')).toHaveLength(5);
    expect(await list('/api/channel/?page_size=0')).toHaveLength(5);
    expect(names(await list('/api/channel/?p=-4&page_size=2'))).toEqual(['c', 'b']);
  });

  it('reads non-integer paging values as 0, as strconv.Atoi does, and refuses oversized text', async () => {
    await seed();
    for (const url of [
      '/api/channel/?p=x&page_size=2',
      '/api/channel/?p=99999999999999999999&page_size=2',
      '/api/channel/?p=NaN&page_size=2',
    ]) {
      expect(names(await list(url)), url).toEqual(['c', 'b']);
    }
    expect(await list('/api/channel/?page_size=1.5')).toHaveLength(5);
    const response = await root.get(`/api/channel/search?group=${'g'.repeat(65)}`);
    expect(response.statusCode).toBeLessThan(500);
    expect(envelope(response).success).toBe(false);
  });

  it('tag_mode pages over tags and answers the channels of those tags, untagged ones left out', async () => {
    const tA = await createChannel(root, { name: 'tA', tag: 't1', priority: 5, key: 'secret-1' });
    const tB = await createChannel(root, { name: 'tB', tag: 't1', priority: 1, key: 'secret-2', status: 2 });
    await createChannel(root, { name: 'plain', priority: 3, key: 'secret-3' });
    const tD = await createChannel(root, { name: 'tD', tag: 't2', priority: 0, key: 'secret-4' });
    await createChannel(root, { name: 'top', priority: 10, key: 'secret-5' });

    const all = await list('/api/channel/?tag_mode=true');
    expect(all.map((item) => item.id)).toEqual([tA, tB, tD]);
    expect(all.map((item) => item.tag)).toEqual(['t1', 't1', 't2']);
    for (const channel of all) expect(channel).not.toHaveProperty('key');

    // page_size counts tags: the second page of one tag is t2's channels.
    expect((await list('/api/channel/?tag_mode=true&p=0&page_size=1')).map((item) => item.id)).toEqual([
      tA,
      tB,
    ]);
    expect((await list('/api/channel/?tag_mode=true&p=1&page_size=1')).map((item) => item.id)).toEqual([tD]);
    expect(await list('/api/channel/?tag_mode=true&p=2&page_size=1')).toEqual([]);

    // id_sort: tags by their highest id (t2's only channel tD is newer than t1's).
    const byId = await list('/api/channel/?tag_mode=true&id_sort=true');
    expect(byId.map((item) => item.id)).toEqual([tD, tB, tA]);
  });

  it('searches by keyword: exact id, name or key substring', async () => {
    const ids = await seed();
    await createChannel(root, { name: 'Alpha Relay', key: 'secret-zeta-777' });
    const search = async (query: string) => names(await list(`/api/channel/search?${query}`));
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
    expect(names(paged)).toEqual(['b', 'a']);
  });

  it('searches by group (one of the comma groups) and by model (substring)', async () => {
    await createChannel(root, { name: 'g1', group: 'default,vip', models: 'gpt-4o,claude-3-haiku' });
    await createChannel(root, { name: 'g2', group: 'vipx', models: 'gemini-2.0-flash' });
    await createChannel(root, { name: 'g3', group: 'svip,vip,free', models: 'gpt-4o-mini' });
    await createChannel(root, { name: 'g4', group: 'vip', models: 'deepseek-chat' });
    const search = async (query: string) => names(await list(`/api/channel/search?id_sort=true&${query}`));
    expect(await search('group=vip')).toEqual(['g4', 'g3', 'g1']);
    expect(await search('group=vipx')).toEqual(['g2']);
    expect(await search('group=free')).toEqual(['g3']);
    expect(await search('group=vi')).toEqual([]);
    // The reference console sends group=null when no group is chosen: no group filter.
    expect(await search('group=null')).toEqual(['g4', 'g3', 'g2', 'g1']);
    expect(await search('model=gpt-4o')).toEqual(['g3', 'g1']);
    expect(await search('model=HAIKU')).toEqual(['g1']);
    expect(await search('model=gpt-4o&group=default')).toEqual(['g1']);
    expect(await search('model=gpt&keyword=g3')).toEqual(['g3']);
  });

  it('tag_mode search: the tags of the matching channels, with every channel of those tags', async () => {
    await createChannel(root, { name: 'x1', tag: 'tx', models: 'gpt-4o' });
    await createChannel(root, { name: 'x2', tag: 'tx', models: 'claude-3-haiku' });
    await createChannel(root, { name: 'z1', tag: 'tz', models: 'claude-3-haiku' });
    await createChannel(root, { name: 'y1', models: 'gpt-4o' });
    expect(names(await list('/api/channel/search?model=gpt&tag_mode=true&id_sort=true'))).toEqual([
      'x2',
      'x1',
    ]);
  });
});
