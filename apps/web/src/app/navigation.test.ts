import { describe, expect, it } from 'vitest';
import type { SessionUser } from '../lib/session';
import { buildSidebarItems, type MenuKey, SIDEBAR_ENTRIES, selectedMenuKeys } from './navigation';

const everyKey = new Set<string>(SIDEBAR_ENTRIES.map((entry) => entry.key));
const admin: SessionUser = { id: 1, username: 'root', role: 100 };
const common: SessionUser = { id: 2, username: 'alice', role: 1 };
const keys = (items: { key: string }[]) => items.map((item) => item.key);

describe('buildSidebarItems', () => {
  it('lists admin-only entries (channel, redemption, user) for admins only', () => {
    const forAdmin = keys(buildSidebarItems({ user: admin, status: {}, availableKeys: everyKey }).items);
    const forUser = keys(buildSidebarItems({ user: common, status: {}, availableKeys: everyKey }).items);
    expect(forAdmin).toEqual(expect.arrayContaining(['channel', 'redemption', 'user']));
    for (const key of ['channel', 'redemption', 'user']) expect(forUser).not.toContain(key);
    expect(forUser).toEqual(expect.arrayContaining(['playground', 'token', 'topup', 'log', 'setting']));
  });

  it('keeps the spec order', () => {
    const status = { enable_data_export: true, enable_drawing: true, enable_task: true };
    expect(keys(buildSidebarItems({ user: admin, status, availableKeys: everyKey }).items)).toEqual([
      'playground',
      'channel',
      'chat',
      'token',
      'detail',
      'redemption',
      'topup',
      'user',
      'log',
      'midjourney',
      'task',
      'setting',
      'about',
      'pricing',
      'home',
    ] satisfies MenuKey[]);
  });

  it('shows dashboard, drawing and tasks only when their status flags are true', () => {
    const off = keys(buildSidebarItems({ user: admin, status: {}, availableKeys: everyKey }).items);
    expect(off).not.toContain('detail');
    expect(off).not.toContain('midjourney');
    expect(off).not.toContain('task');
    const on = keys(
      buildSidebarItems({
        user: admin,
        status: { enable_data_export: true, enable_drawing: true, enable_task: false },
        availableKeys: everyKey,
      }).items,
    );
    expect(on).toContain('detail');
    expect(on).toContain('midjourney');
    expect(on).not.toContain('task');
  });

  it('offers only public entries to logged-out visitors', () => {
    expect(keys(buildSidebarItems({ user: null, status: {}, availableKeys: everyKey }).items)).toEqual([
      'about',
      'pricing',
      'home',
    ]);
  });

  it('omits entries whose page is not routed yet', () => {
    const available = new Set(['setting', 'user']);
    expect(keys(buildSidebarItems({ user: admin, status: {}, availableKeys: available }).items)).toEqual([
      'user',
      'setting',
    ]);
  });

  describe('chat entry', () => {
    const chatOnly = new Set(['chat']);
    const chats = [
      { 'ChatGPT Next Web': 'https://a.example/#/?key={key}' },
      { Lobe: 'https://b.example/?k={key}' },
    ];

    it('links straight to /chat/0 with exactly one configured chat', () => {
      const { items } = buildSidebarItems({
        user: common,
        status: { chats: [chats[0]] },
        availableKeys: chatOnly,
      });
      expect(items[0]).toMatchObject({ key: 'chat', path: '/chat/0' });
      expect(items[0]?.children).toBeUndefined();
    });

    it('builds a submenu from the stored chats list when several are configured', () => {
      const { items } = buildSidebarItems({
        user: common,
        status: {},
        storedChats: JSON.stringify(chats),
        availableKeys: chatOnly,
      });
      expect(items[0]?.children?.map((child) => [child.label, child.path])).toEqual([
        ['ChatGPT Next Web', '/chat/0'],
        ['Lobe', '/chat/1'],
      ]);
    });

    it('ignores the chats list when a chat link is set', () => {
      const { items } = buildSidebarItems({
        user: common,
        status: { chat_link: 'https://chat.example', chats },
        availableKeys: chatOnly,
      });
      expect(items[0]).toMatchObject({ path: '/chat' });
      expect(items[0]?.children).toBeUndefined();
    });

    it('reports a chats list that cannot be parsed', () => {
      const result = buildSidebarItems({
        user: common,
        status: {},
        storedChats: '{oops',
        availableKeys: chatOnly,
      });
      expect(result.chatParseFailed).toBe(true);
      expect(result.items[0]).toMatchObject({ key: 'chat', path: '/chat' });
    });
  });
});

describe('selectedMenuKeys', () => {
  it('follows the first path segment', () => {
    expect(selectedMenuKeys('/')).toEqual(['home']);
    expect(selectedMenuKeys('/user/edit/3')).toEqual(['user']);
    expect(selectedMenuKeys('/setting')).toEqual(['setting']);
    expect(selectedMenuKeys('/chat/1')).toEqual(['chat', 'chat1']);
  });
});
