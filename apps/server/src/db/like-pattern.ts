import { type Expression, type SqlBool, sql } from 'kysely';

/**
 * Escapes LIKE wildcards with `!`, the one escape character that behaves the same on SQLite (no
 * default escape), PostgreSQL and MySQL (which disagree on backslashes in string literals).
 */
export const escapeLike = (text: string): string => text.replace(/[!%_]/g, (c) => `!${c}`);

/** `%text%` with `text` matched literally; use with `escape '!'`. */
export const containsPattern = (text: string): string => `%${escapeLike(text)}%`;

/** `lower(column) LIKE lower('%text%') ESCAPE '!'`: a case-insensitive literal substring match on every database. */
export function containsIgnoringCase(column: string, text: string): Expression<SqlBool> {
  return sql<SqlBool>`lower(${sql.ref(column)}) like lower(${containsPattern(text)}) escape '!'`;
}
