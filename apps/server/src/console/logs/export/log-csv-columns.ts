import { LogType } from '@switchyard/shared';
import type { LogRow } from '../../../db/repositories/log-repository.ts';
import type { CsvValue } from './csv-cell.ts';

/**
 * The columns of the log export: what the admin log table shows, as plain values a spreadsheet
 * or a script can use. Names are the API's field names (the same in every console language).
 *
 * - `created_at`: unix seconds (exact, for scripts); `time`: the same instant as
 *   `YYYY-MM-DD HH:mm:ss` at the export's UTC offset, named in the header (`time (UTC+08:00)`),
 *   a form Excel and LibreOffice read as a date and time.
 * - `type`: a word (`topup`, `consume`, `manage`, `system`, `error`, `unknown`).
 * - `channel` / `channel_name`: the channel id and its current name ('' once deleted).
 * - `quota`: the integer quota charged (not converted to currency); `use_time`: seconds;
 *   `is_stream`: `true` / `false`.
 * - `request_id`: the request id from `other`, for looking a call up in the server's logs.
 * - `content` and `other` (the whole details JSON, `admin_info` included) as stored.
 */
export const LOG_CSV_COLUMNS = [
  'id',
  'created_at',
  'time',
  'type',
  'user_id',
  'username',
  'token_id',
  'token_name',
  'model_name',
  'channel',
  'channel_name',
  'group',
  'quota',
  'prompt_tokens',
  'completion_tokens',
  'use_time',
  'is_stream',
  'ip',
  'request_id',
  'content',
  'other',
] as const;

/** Widest offsets in use (UTC−12:00 … UTC+14:00), in minutes east of UTC. */
export const UTC_OFFSET_MIN = -720;
export const UTC_OFFSET_MAX = 840;

const TYPE_WORDS = new Map<number, string>(
  Object.entries(LogType).map(([name, value]) => [value, name.toLowerCase()]),
);

/** `+08:00`, `-03:30`, `+00:00`. */
export function formatUtcOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/** The header record. */
export function logCsvHeader(utcOffsetMinutes: number): CsvValue[] {
  return LOG_CSV_COLUMNS.map((column) =>
    column === 'time' ? `time (UTC${formatUtcOffset(utcOffsetMinutes)})` : column,
  );
}

/** Unix seconds as `YYYY-MM-DD HH:mm:ss` at the offset. */
export function formatLocalTime(seconds: number, utcOffsetMinutes: number): string {
  const iso = new Date((seconds + utcOffsetMinutes * 60) * 1000).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}`;
}

/** The request id in a row's `other` JSON ('' when it has none or is not JSON). */
export function requestIdOf(other: string | null): string {
  if (!other?.includes('"request_id"')) return '';
  try {
    const parsed: unknown = JSON.parse(other);
    const id = (parsed as { request_id?: unknown } | null)?.request_id;
    return typeof id === 'string' ? id : '';
  } catch {
    return '';
  }
}

/** One row's record, in LOG_CSV_COLUMNS order. */
export function logCsvRecord(row: LogRow, channelName: string, utcOffsetMinutes: number): CsvValue[] {
  const createdAt = Number(row.created_at);
  const type = Number(row.type);
  return [
    Number(row.id),
    createdAt,
    formatLocalTime(createdAt, utcOffsetMinutes),
    TYPE_WORDS.get(type) ?? String(type),
    Number(row.user_id),
    row.username,
    Number(row.token_id),
    row.token_name,
    row.model_name,
    Number(row.channel_id),
    channelName,
    row.group,
    Number(row.quota),
    Number(row.prompt_tokens),
    Number(row.completion_tokens),
    Number(row.use_time),
    Number(row.is_stream) === 1,
    row.ip,
    requestIdOf(row.other),
    row.content ?? '',
    row.other ?? '',
  ];
}
