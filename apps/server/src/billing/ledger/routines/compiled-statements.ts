import { CompiledQuery } from 'kysely';
import type { DatabaseKind } from '../../../config/env.ts';
import type { NewLog } from '../../../db/repositories/log-repository.ts';
import { LOG_COLUMNS, logValues } from '../../settlement/log-values.ts';

/** The database servers whose hot statements are sent as ready SQL text. */
export type ServerKind = 'postgres' | 'mysql';

/**
 * The ledger's and the settlement writer's statements on PostgreSQL and MySQL/MariaDB go as ready
 * SQL text with bound parameters, sent with `executeQuery` (no query builder, no compiler): a
 * settlement batch's multi-row log insert built through Kysely made an operation tree of ~1,000
 * nodes and compiled it for every batch (8% of the gateway's CPU per call on PostgreSQL, ADR-25).
 * Texts depend only on the dialect and on how many rows, ids or calls they carry, so each shape is
 * built once and kept; values always travel as parameters, never in the text. What both servers
 * share is here (the log insert serves a separate SQLite log database too); each dialect's own
 * texts are in `postgres/postgres-ledger.ts` and `mysql/mysql-ledger.ts`.
 */

/** Shapes kept per dialect and count; a larger count is built each time (never in practice). */
const MAX_KEPT_COUNT = 512;
const texts = new Map<string, string>();

/** The text of one statement shape, built once per `key` (`count` rows, ids or calls). */
export function kept(key: string, count: number, build: () => string): string {
  let text = texts.get(key);
  if (text === undefined) {
    text = build();
    if (count <= MAX_KEPT_COUNT) texts.set(key, text);
  }
  return text;
}

/** `$from, $from+1, …` (PostgreSQL) or `?, ?, …` (MySQL, SQLite): `count` parameters from number `from`. */
export function placeholders(kind: DatabaseKind, from: number, count: number): string {
  const marks: string[] = new Array(count);
  for (let index = 0; index < count; index++) marks[index] = kind === 'postgres' ? `$${from + index}` : '?';
  return marks.join(', ');
}

const quote = (kind: DatabaseKind, name: string) => (kind === 'mysql' ? `\`${name}\`` : `"${name}"`);

/** One INSERT of consume log rows, every column of `logs`, defaults filled in (`logValues`). */
export function logInsertQuery(
  kind: DatabaseKind,
  rows: readonly { log: NewLog; at: number }[],
): CompiledQuery {
  const width = LOG_COLUMNS.length;
  const text = kept(`logs:${kind}:${rows.length}`, rows.length, () => {
    const tuples: string[] = new Array(rows.length);
    for (let index = 0; index < rows.length; index++) {
      tuples[index] = `(${placeholders(kind, index * width + 1, width)})`;
    }
    const columns = LOG_COLUMNS.map((column) => quote(kind, column)).join(', ');
    return `INSERT INTO logs (${columns}) VALUES ${tuples.join(', ')}`;
  });
  const parameters: unknown[] = [];
  for (const row of rows) {
    const values = logValues(row.log, row.at);
    for (let index = 0; index < width; index++) parameters.push(values[index]);
  }
  return CompiledQuery.raw(text, parameters);
}

/** One call of a ledger routine (postgres-routines.ts, mysql-routines.ts): its name and its arguments in order. */
export interface RoutineInvocation {
  name: string;
  args: readonly unknown[];
}
