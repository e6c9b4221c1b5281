import {
  ApiOutlined,
  BarChartOutlined,
  CommentOutlined,
  CreditCardOutlined,
  DollarOutlined,
  ExperimentOutlined,
  FileTextOutlined,
  GiftOutlined,
  HomeOutlined,
  InfoCircleOutlined,
  KeyOutlined,
  PictureOutlined,
  ScheduleOutlined,
  SettingOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import type { ReactNode } from 'react';
import { type Access, hasAccess } from '../lib/access';
import type { SessionUser } from '../lib/session';
import { parseChats, type SiteStatus } from '../lib/site-status';

/** Menu keys of the sidebar, in the order the spec lists them. */
export type MenuKey =
  | 'playground'
  | 'channel'
  | 'chat'
  | 'token'
  | 'detail'
  | 'redemption'
  | 'topup'
  | 'user'
  | 'log'
  | 'midjourney'
  | 'task'
  | 'setting'
  | 'about'
  | 'pricing'
  | 'home';

type StatusFlag = 'enable_data_export' | 'enable_drawing' | 'enable_task';

interface SidebarEntryDefinition {
  key: MenuKey;
  path: string;
  icon: ReactNode;
  access: Access;
  /** The entry shows only when this status flag is true. */
  flag?: StatusFlag;
}

/**
 * Every sidebar entry of the navigation shell. An entry appears only when the route table has a
 * route carrying its menu key (so pages that do not exist yet have no entry), the visitor passes
 * its access flag, and its status flag (if any) is on. Labels are `common:menu.<key>`.
 */
export const SIDEBAR_ENTRIES: readonly SidebarEntryDefinition[] = [
  { key: 'playground', path: '/playground', icon: <ExperimentOutlined />, access: 'user' },
  { key: 'channel', path: '/channel', icon: <ApiOutlined />, access: 'admin' },
  { key: 'chat', path: '/chat', icon: <CommentOutlined />, access: 'user' },
  { key: 'token', path: '/token', icon: <KeyOutlined />, access: 'user' },
  { key: 'detail', path: '/detail', icon: <BarChartOutlined />, access: 'user', flag: 'enable_data_export' },
  { key: 'redemption', path: '/redemption', icon: <GiftOutlined />, access: 'admin' },
  { key: 'topup', path: '/topup', icon: <CreditCardOutlined />, access: 'user' },
  { key: 'user', path: '/user', icon: <TeamOutlined />, access: 'admin' },
  { key: 'log', path: '/log', icon: <FileTextOutlined />, access: 'user' },
  {
    key: 'midjourney',
    path: '/midjourney',
    icon: <PictureOutlined />,
    access: 'user',
    flag: 'enable_drawing',
  },
  { key: 'task', path: '/task', icon: <ScheduleOutlined />, access: 'user', flag: 'enable_task' },
  { key: 'setting', path: '/setting', icon: <SettingOutlined />, access: 'user' },
  { key: 'about', path: '/about', icon: <InfoCircleOutlined />, access: 'public' },
  { key: 'pricing', path: '/pricing', icon: <DollarOutlined />, access: 'public' },
  { key: 'home', path: '/', icon: <HomeOutlined />, access: 'public' },
];

/** A visible sidebar item; `label` is set for chat entries (their names come from configuration). */
export interface SidebarItem {
  key: string;
  path: string;
  icon?: ReactNode;
  labelKey?: string;
  label?: string;
  children?: SidebarItem[];
}

export interface SidebarContext {
  user: SessionUser | null;
  status: SiteStatus;
  /** Menu keys that have a route in the route table. */
  availableKeys: ReadonlySet<string>;
  /** The stored chats list (localStorage `chats`), used when status carries none. */
  storedChats?: string | null;
}

function buildChatItem(entry: SidebarEntryDefinition, context: SidebarContext) {
  const base: SidebarItem = { key: entry.key, path: entry.path, icon: entry.icon, labelKey: 'menu.chat' };
  // With a chat link configured the /chat page uses it; the chats list is ignored.
  if (context.status.chat_link) return { item: base, chatParseFailed: false };
  try {
    const chats = parseChats(context.status.chats ?? context.storedChats ?? null);
    if (chats.length === 1) return { item: { ...base, path: '/chat/0' }, chatParseFailed: false };
    if (chats.length > 1) {
      const children = chats.map((chat, index) => ({
        key: `chat${index}`,
        path: `/chat/${index}`,
        label: chat.name,
      }));
      return { item: { ...base, children }, chatParseFailed: false };
    }
    return { item: base, chatParseFailed: false };
  } catch {
    return { item: base, chatParseFailed: true };
  }
}

/**
 * The navigation shell's visibility rules as a pure function: admin-only entries, status flags,
 * route availability and the chat submenu. `chatParseFailed` asks the caller to show the
 * "chat data failed to parse" message.
 */
export function buildSidebarItems(context: SidebarContext): {
  items: SidebarItem[];
  chatParseFailed: boolean;
} {
  const items: SidebarItem[] = [];
  let chatParseFailed = false;
  for (const entry of SIDEBAR_ENTRIES) {
    if (!context.availableKeys.has(entry.key)) continue;
    if (!hasAccess(entry.access, context.user)) continue;
    if (entry.flag && context.status[entry.flag] !== true) continue;
    if (entry.key === 'chat') {
      const chat = buildChatItem(entry, context);
      chatParseFailed = chat.chatParseFailed;
      items.push(chat.item);
      continue;
    }
    items.push({ key: entry.key, path: entry.path, icon: entry.icon, labelKey: `menu.${entry.key}` });
  }
  return { items, chatParseFailed };
}

/** The selected sidebar keys follow the first path segment ('' is home; /chat/2 also selects chat2). */
export function selectedMenuKeys(pathname: string): string[] {
  const [, first = '', second] = pathname.split('/');
  const key = first === '' ? 'home' : first;
  if (key === 'chat' && second !== undefined && second !== '') return ['chat', `chat${second}`];
  return [key];
}
