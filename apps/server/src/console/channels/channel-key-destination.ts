import type { ChannelChanges, ChannelRow } from '../../db/repositories/channel-repository.ts';

/**
 * A channel's key follows its destination: the fields that decide where the key is sent are the
 * type (which provider and default address), the base URL (Azure's endpoint too), `other`
 * (Vertex's region, Azure's API version and the like) and the proxy in `setting`. An admin who
 * cannot read the key must not be able to send it elsewhere (then press "test"): changing any of
 * them without entering the key again is for the root user only, and a copy made by an admin
 * does not carry the key.
 */

/** The proxy address of a channel's `setting` JSON ('' when none or unreadable). */
function proxyOf(setting: string | null | undefined): string {
  if (!setting || setting.trim() === '') return '';
  try {
    const parsed = JSON.parse(setting) as { proxy?: unknown } | null;
    return typeof parsed?.proxy === 'string' ? parsed.proxy.trim() : '';
  } catch {
    return '';
  }
}

/** The destination fields that `changes` would change on `current` (empty: the key stays where it goes). */
export function changedDestinationFields(changes: ChannelChanges, current: ChannelRow): string[] {
  const changed: string[] = [];
  if (changes.type !== undefined && changes.type !== current.type) changed.push('type');
  if (changes.base_url !== undefined && (changes.base_url ?? '') !== (current.base_url ?? ''))
    changed.push('base_url');
  if (changes.other !== undefined && (changes.other ?? '') !== (current.other ?? '')) changed.push('other');
  if (changes.setting !== undefined && proxyOf(changes.setting) !== proxyOf(current.setting))
    changed.push('proxy');
  return changed;
}

/** The message shown to an admin who changed where the key goes without entering it again. */
export const KEY_REQUIRED_FOR_NEW_DESTINATION =
  '修改渠道类型、Base URL、其他参数（区域、API 版本）或代理后，请重新填写渠道密钥（仅超级管理员可以保留原密钥）';

/** The message for a channel saved or tested without a key (a copy made by an admin). */
export const CHANNEL_KEY_MISSING = '该渠道没有密钥，请先编辑渠道并填写密钥';
