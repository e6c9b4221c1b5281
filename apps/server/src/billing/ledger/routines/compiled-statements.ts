import { CompiledQuery } from 'kysely';
import type { NewLog } from '../../../db/repositories/log-repository.ts';
import { LOG_COLUMNS, logValues } from '../../settlement/log-values.ts';

/** The database servers whose hot statements are sent as ready SQL text. */
export type ServerKind = 'postgres' | 'mysql';

/**
 * The ledger's and the settlement writer's statements on PostgreSQL and MySQL/MariaDB as ready
 * SQL text with bound parameters, sent with `executeQuery` (no query builder, no compiler): a
 * settlement batch's multi-row log insert built through Kysely made an operation tree of ~1,000
 * nodes and compiled it for every batch (8% of the gateway's CPU per call on PostgreSQL, session
 * 24's profile). Texts depend only on the dialect and on how many rows, ids or calls they carry,
 * so each shape is built once and kept; values always travel as parameters, never in the text.
 */

/** Shapes kept per dialect and count; a larger count is built each time (never in practice). */
const MAX_KEPT_COUNT = 512;
const texts = new Map<string, string>();

function kept(key: string, count: number, build: () => string): string {
  let text = texts.get(key);
  if (text === undefined) {
    text = build();
    if (count <= MAX_KEPT_COUNT) texts.set(key, text);
  }
  return text;
}

/** `$from, $from+1, …` (PostgreSQL) or `?, ?, …` (MySQL): `count` parameters from number `from`. */
export function placeholders(kind: ServerKind, from: number, count: number): string {
  const marks: string[] = new Array(count);
  for (let index = 0; index < count; index++) marks[index] = kind === 'mysql' ? '?' : `$${from + index}`;
  return marks.join(', ');
}

const quote = (kind: ServerKind, name: string) => (kind === 'mysql' ? `\`${name}\`` : `"${name}"`);

/** One INSERT of consume log rows, every column of `logs`, defaults filled in as SQLite's insert does. */
export function logInsertQuery(
  kind: ServerKind,
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

/** PostgreSQL: deletes those of `ids` that are settled ledger rows and returns their ids. */
export function deleteSettledReturningQuery(ids: readonly string[]): CompiledQuery {
  const text = kept(`claim:postgres:${ids.length}`, ids.length, () => {
    return `DELETE FROM reservations WHERE state = 'settled' AND id IN (${placeholders('postgres', 1, ids.length)}) RETURNING id`;
  });
  return CompiledQuery.raw(text, [...ids]);
}

/**
 * MySQL: locks those of `ids` that are settled ledger rows and returns their ids. By primary key
 * only: the ledger table is small (rows live for one call), and for a long id list the optimizer
 * chose to scan it, locking the rows other calls were settling while the batch went on to wait
 * for their user's row (a deadlock).
 */
export function lockSettledQuery(ids: readonly string[]): CompiledQuery {
  const text = kept(`lock:mysql:${ids.length}`, ids.length, () => {
    return `SELECT id FROM reservations FORCE INDEX (PRIMARY) WHERE state = 'settled' AND id IN (${placeholders('mysql', 1, ids.length)}) FOR UPDATE`;
  });
  return CompiledQuery.raw(text, [...ids]);
}

/** MySQL: deletes the ledger rows `ids` (locked by `lockSettledQuery` in this transaction). */
export function deleteReservationsQuery(ids: readonly string[]): CompiledQuery {
  const text = kept(`delete:mysql:${ids.length}`, ids.length, () => {
    return `DELETE FROM reservations WHERE id IN (${placeholders('mysql', 1, ids.length)})`;
  });
  return CompiledQuery.raw(text, [...ids]);
}

/** One call of a ledger routine (migration 005): its name and its arguments in order. */
export interface RoutineInvocation {
  name: string;
  args: readonly unknown[];
}

/** MySQL: `CALL name(?, …)`, one procedure per statement. */
export function callProcedureQuery(call: RoutineInvocation): CompiledQuery {
  const text = kept(`call:${call.name}:${call.args.length}`, call.args.length, () => {
    return `CALL ${call.name}(${placeholders('mysql', 1, call.args.length)})`;
  });
  return CompiledQuery.raw(text, call.args as unknown[]);
}

/**
 * PostgreSQL: `SELECT f(…) AS result` for one call, `SELECT f(…) AS r0, g(…) AS r1, …` for
 * several (they run in order, in one transaction). Only the one-call texts are kept: a group's
 * mix of routines varies without bound, and its text is a few concatenations.
 */
export function selectFunctionsQuery(calls: readonly RoutineInvocation[]): CompiledQuery {
  if (calls.length === 1) {
    const [call] = calls as [RoutineInvocation];
    const text = kept(`select:${call.name}:${call.args.length}`, call.args.length, () => {
      return `SELECT ${call.name}(${placeholders('postgres', 1, call.args.length)}) AS result`;
    });
    return CompiledQuery.raw(text, call.args as unknown[]);
  }
  const parameters: unknown[] = [];
  for (const call of calls) for (const arg of call.args) parameters.push(arg);
  let from = 1;
  const columns = calls.map((call, index) => {
    const column = `${call.name}(${placeholders('postgres', from, call.args.length)}) AS r${index}`;
    from += call.args.length;
    return column;
  });
  return CompiledQuery.raw(`SELECT ${columns.join(', ')}`, parameters);
}

/** The routine's name without its prefix: `switchyard_settle` → `settle`. */
const callKind = (name: string) => (name.startsWith('switchyard_') ? name.slice('switchyard_'.length) : name);

/**
 * MySQL: one user's calls of one turn as one `CALL switchyard_ledger_group(?)` (migration 007),
 * the calls a JSON array of `[kind, …args]` in order.
 */
export function ledgerGroupQuery(calls: readonly RoutineInvocation[]): CompiledQuery {
  const list = calls.map((call) => [callKind(call.name), ...call.args]);
  return CompiledQuery.raw('CALL switchyard_ledger_group(?)', [JSON.stringify(list)]);
}
