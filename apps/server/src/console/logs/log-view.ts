import type { LogView } from '@switchyard/shared';
import type { LogRow } from '../../db/repositories/log-repository.ts';

/** The fields every view shares. */
function baseView(row: LogRow): LogView {
  return {
    id: Number(row.id),
    created_at: Number(row.created_at),
    type: Number(row.type),
    user_id: Number(row.user_id),
    username: row.username,
    token_id: Number(row.token_id),
    token_name: row.token_name,
    model_name: row.model_name,
    quota: Number(row.quota),
    prompt_tokens: Number(row.prompt_tokens),
    completion_tokens: Number(row.completion_tokens),
    use_time: Number(row.use_time),
    is_stream: Number(row.is_stream) === 1,
    group: row.group,
    ip: row.ip,
    content: row.content ?? '',
    other: row.other ?? '',
  };
}

/** An admin's view: everything, plus the channel id and its current name ('' once deleted). */
export function toAdminLogView(row: LogRow, channelNames: ReadonlyMap<number, string>): LogView {
  const channel = Number(row.channel_id);
  return { ...baseView(row), channel, channel_name: channelNames.get(channel) ?? '' };
}

/**
 * `other` without `admin_info` (the channels tried). Text that is not a JSON object cannot be
 * checked, so it is dropped rather than shown.
 */
export function stripAdminInfo(other: string | null): string {
  if (!other) return '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(other);
  } catch {
    return '';
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return '';
  const { admin_info: _adminInfo, ...rest } = parsed as Record<string, unknown>;
  return JSON.stringify(rest);
}

/**
 * A user's view of their own rows: no channel id or name and no `admin_info`. Ids are real (the
 * reference's `id % 1024` hides nothing and breaks row keys).
 */
export function toSelfLogView(row: LogRow): LogView {
  return { ...baseView(row), other: stripAdminInfo(row.other) };
}

/** The token-log view: the self view without the client address (a key may be shared). */
export function toTokenLogView(row: LogRow): LogView {
  return { ...toSelfLogView(row), ip: '' };
}
