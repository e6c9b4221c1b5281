/**
 * How the log lists stay fast on a table of millions of rows (ADR-48): the model filter resolved
 * to exact names, and a request id narrowed to the hour its time prefix names.
 */
import { type Kysely, type SqlBool, sql } from 'kysely';
import type { DatabaseKind } from '../../config/env.ts';
import { escapeLike } from '../like-pattern.ts';
import type { Database } from '../schema.ts';

/** Above this many matching names the model filter stays a substring match (it then matches most rows). */
export const MAX_RESOLVED_MODEL_NAMES = 500;

/** ASCII-only lower case: the model filter ignores ASCII case, as `lower()` does on SQLite. */
export const asciiLower = (text: string): string => text.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** The names among `names` that contain `pattern`, ignoring ASCII case. */
export function namesContaining(names: readonly string[], pattern: string): string[] {
  const needle = asciiLower(pattern);
  return names.filter((name) => asciiLower(name).includes(needle));
}

/**
 * Every distinct model name in the logs, read from the (model_name, created_at) index one name at
 * a time (a loose index scan: one probe per name, however many rows each has). MySQL and MariaDB
 * do that for a plain DISTINCT themselves.
 */
export async function distinctModelNames(db: Kysely<Database>, kind: DatabaseKind): Promise<string[]> {
  if (kind === 'mysql') {
    const result = await sql<{ name: string }>`SELECT DISTINCT model_name AS name FROM logs`.execute(db);
    return result.rows.map((row) => row.name);
  }
  const result = await sql<{ name: string | null }>`
    WITH RECURSIVE names(name) AS (
      SELECT min(model_name) FROM logs
      UNION ALL
      SELECT (SELECT min(l.model_name) FROM logs l WHERE l.model_name > names.name) FROM names WHERE names.name IS NOT NULL
    )
    SELECT name FROM names WHERE name IS NOT NULL`.execute(db);
  return result.rows.map((row) => row.name as string);
}

/** Seconds before a request id's time that its row may carry (clocks of several nodes). */
const REQUEST_ID_BEFORE = 60;
/** Seconds after a request id's time within which its row is written (the call's length). */
export const REQUEST_ID_AFTER = 3600;

/**
 * The UTC second a request id begins with (yyyyMMddHHmmss), or null when it does not begin with a
 * valid time.
 */
export function requestIdSecond(requestId: string): number | null {
  const match = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})/.exec(requestId);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const at = Date.UTC(year, month - 1, day, hour, minute, second);
  const back = new Date(at);
  if (
    back.getUTCMonth() !== month - 1 ||
    back.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  )
    return null;
  return Math.floor(at / 1000);
}

/** The created_at window a request id's row lies in, or null when the id names no time. */
export function requestIdWindow(requestId: string): { start: number; end: number } | null {
  const at = requestIdSecond(requestId);
  return at === null ? null : { start: at - REQUEST_ID_BEFORE, end: at + REQUEST_ID_AFTER };
}

/** `other` holds `"request_id":"<id>"` (the JSON the settlement writes), matched literally. */
export function requestIdCondition(requestId: string) {
  return sql<SqlBool>`${sql.ref('other')} like ${`%"request_id":${escapeLike(JSON.stringify(requestId))}%`} escape '!'`;
}
