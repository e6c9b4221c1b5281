import type { DatabaseKind } from '../config/env.ts';

/**
 * How a table's `deleted_at` is stored: Unix seconds (Switchyard's own tables) or a datetime
 * (tables created by new-api through GORM, kept as they are when Switchyard adopts them).
 */
export type DeletedAtStyle = 'seconds' | 'datetime';

/** The tables with soft deletes. */
export type SoftDeleteTable = 'users' | 'tokens' | 'redemptions';

export type DeletedAtStyles = Record<SoftDeleteTable, DeletedAtStyle>;

export const secondsEverywhere: DeletedAtStyles = {
  users: 'seconds',
  tokens: 'seconds',
  redemptions: 'seconds',
};

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/**
 * The value that marks a row deleted at `nowSeconds`, in the column's own form. On SQLite a
 * datetime is written as GORM's Go driver writes it (`2025-02-10 08:31:02.123+00:00`), so new-api
 * can still read the file; MySQL gets `YYYY-MM-DD hh:mm:ss.mmm` (UTC, the pool's time zone) and
 * PostgreSQL an ISO time.
 */
export function deletedAtValue(
  style: DeletedAtStyle,
  kind: DatabaseKind,
  nowSeconds: number,
): number | string {
  if (style === 'seconds') return nowSeconds;
  const date = new Date(nowSeconds * 1000);
  if (kind === 'postgres') return date.toISOString();
  const text =
    `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}.000`;
  return kind === 'sqlite' ? `${text}+00:00` : text;
}

/**
 * A stored `deleted_at` as Unix seconds: numbers pass, Dates (MySQL/PostgreSQL datetimes) and
 * Go time text (`2025-02-10 08:31:02.123456789+08:00`, SQLite) are parsed. null stays null; text
 * that is no time at all still counts as deleted (0), since GORM only writes it on delete.
 */
export function deletedAtSeconds(raw: unknown): number | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'number') return raw;
  if (raw instanceof Date) return Math.floor(raw.getTime() / 1000);
  const text = String(raw).trim();
  if (/^-?\d+(\.\d+)?$/.test(text)) return Math.floor(Number(text));
  const match = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.(\d+))?\s*(Z|[+-]\d{2}:?\d{2})?/.exec(text);
  if (match === null) return 0;
  const [, day, time, , zone] = match;
  const offset =
    zone === undefined || zone === 'Z'
      ? 'Z'
      : zone.includes(':')
        ? zone
        : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const ms = Date.parse(`${day}T${time}${offset}`);
  return Number.isNaN(ms) ? 0 : Math.floor(ms / 1000);
}

/** The style of each soft-delete table, from the declared types of its `deleted_at` column. */
export function deletedAtStyles(declaredTypes: Partial<Record<SoftDeleteTable, string>>): DeletedAtStyles {
  const style = (type: string | undefined): DeletedAtStyle =>
    type !== undefined && /date|time/i.test(type) ? 'datetime' : 'seconds';
  return {
    users: style(declaredTypes.users),
    tokens: style(declaredTypes.tokens),
    redemptions: style(declaredTypes.redemptions),
  };
}
