import type { ChannelView } from '@switchyard/shared';
import { readString, writeString } from '../../../lib/storage';

/** Response-time badge colour: 0 untested; ≤1 s green; ≤3 s lime; ≤5 s yellow; beyond red. */
export function responseTimeColor(milliseconds: number): 'default' | 'green' | 'lime' | 'gold' | 'red' {
  if (milliseconds <= 0) return 'default';
  if (milliseconds <= 1000) return 'green';
  if (milliseconds <= 3000) return 'lime';
  if (milliseconds <= 5000) return 'gold';
  return 'red';
}

/** Key format hints by channel type (message keys of channels:edit.keyHints). */
export const KEY_HINT_TYPES = [15, 18, 22, 23, 33] as const;

/** other_info's JSON text as an object, or null when it is empty or not a JSON object. */
function readOtherInfo(text: string | null | undefined): object | null {
  if (!text) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/** The auto-disable reason and time of a channel (other_info, JSON text), when it has one. */
export function autoDisableInfo(
  channel: Pick<ChannelView, 'other_info'>,
): { reason: string; time: number } | null {
  const info = readOtherInfo(channel.other_info);
  if (!info) return null;
  const { status_reason: reason, status_time: time } = info as {
    status_reason?: unknown;
    status_time?: unknown;
  };
  if (typeof reason !== 'string' || reason === '') return null;
  return { reason, time: typeof time === 'number' ? time : 0 };
}

/** Splits a comma list (models, groups) into trimmed, non-empty, unique names. */
export function splitList(text: string | null | undefined): string[] {
  return [
    ...new Set(
      (text ?? '')
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean),
    ),
  ];
}

/** Adds comma-separated custom model names; refuses when one is already in the list. */
export function addCustomModels(
  current: string[],
  input: string,
): { models: string[] } | { error: 'duplicate' } {
  const added = splitList(input);
  if (added.some((model) => current.includes(model))) return { error: 'duplicate' };
  return { models: [...current, ...added] };
}

/** Merges model names into the list, keeping order and dropping duplicates. */
export const mergeModels = (current: string[], more: readonly string[]): string[] => [
  ...new Set([...current, ...more]),
];

/** The model names of a fetch_models reply, or null when it is not a list of names. */
export function readFetchedModels(data: unknown): string[] | null {
  if (!Array.isArray(data)) return null;
  const names = data.map((item) =>
    typeof item === 'string'
      ? item
      : item && typeof item === 'object' && 'id' in item
        ? String(item.id)
        : null,
  );
  return names.every((name): name is string => typeof name === 'string' && name !== '') ? names : null;
}

/** True for '' or a JSON object text. */
export function isJsonObjectText(text: string): boolean {
  if (text.trim() === '') return true;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

const ID_SORT_KEY = 'id-sort';
const TAG_MODE_KEY = 'tag-mode';
/** The remembered list switches (localStorage `id-sort` and `tag-mode`). */
export const listPreferences = {
  idSort: () => readString(ID_SORT_KEY) === 'true',
  tagMode: () => readString(TAG_MODE_KEY) === 'true',
  setIdSort: (value: boolean) => writeString(ID_SORT_KEY, String(value)),
  setTagMode: (value: boolean) => writeString(TAG_MODE_KEY, String(value)),
};

/** Table rows of a channel page: in tag mode, the channels of each tag under one parent row. */
export type ChannelRow =
  | (ChannelView & { rowKey: string; kind: 'channel' })
  | {
      rowKey: string;
      kind: 'tag';
      tag: string;
      channel_count: number;
      enabled_count: number;
      priority: number;
      weight: number;
      children: (ChannelView & { rowKey: string; kind: 'channel' })[];
    };

const channelRow = (channel: ChannelView) => ({
  ...channel,
  rowKey: String(channel.id),
  kind: 'channel' as const,
});

/**
 * Turns a page of channels into table rows. In tag mode the API sends the channels of a page of
 * tags as one flat array; they are grouped here by tag, in the order the tags first appear.
 */
export function toRows(channels: readonly ChannelView[], tagMode: boolean): ChannelRow[] {
  if (!tagMode) return channels.map(channelRow);
  const byTag = new Map<string, ChannelView[]>();
  for (const channel of channels) {
    const members = byTag.get(channel.tag) ?? [];
    members.push(channel);
    byTag.set(channel.tag, members);
  }
  return [...byTag].flatMap(([tag, members]): ChannelRow[] =>
    tag === '' ? members.map(channelRow) : [tagRow(tag, members)],
  );
}

function tagRow(tag: string, members: ChannelView[]): ChannelRow {
  return {
    rowKey: `tag:${tag}`,
    kind: 'tag',
    tag,
    channel_count: members.length,
    enabled_count: members.filter((channel) => channel.status === 1).length,
    priority: Math.max(...members.map((channel) => channel.priority)),
    weight: Math.max(0, ...members.map((channel) => channel.weight)),
    children: members.map(channelRow),
  };
}
