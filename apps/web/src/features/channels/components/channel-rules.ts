import type { ChannelTagGroup, ChannelView } from '@switchyard/shared';
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

/** The auto-disable reason and time of a channel (other_info), when it has one. */
export function autoDisableInfo(
  channel: Pick<ChannelView, 'other_info'>,
): { reason: string; time: number } | null {
  const info = channel.other_info;
  if (!info || typeof info !== 'object') return null;
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

/** Turns a list page's entries into table rows: tag groups become parent rows with their channels. */
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

export function toRows(items: readonly (ChannelView | ChannelTagGroup)[]): ChannelRow[] {
  return items.map((item) => {
    if ('tag_group' in item) {
      return {
        rowKey: `tag:${item.tag}`,
        kind: 'tag',
        tag: item.tag,
        channel_count: item.channel_count,
        enabled_count: item.enabled_count,
        priority: item.priority,
        weight: Math.max(0, ...item.channels.map((channel) => channel.weight)),
        children: item.channels.map((channel) => ({
          ...channel,
          rowKey: String(channel.id),
          kind: 'channel',
        })),
      };
    }
    return { ...item, rowKey: String(item.id), kind: 'channel' };
  });
}
