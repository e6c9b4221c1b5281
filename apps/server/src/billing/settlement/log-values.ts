import { LOG_COLUMN_DEFAULTS, type NewLog } from '../../db/repositories/log-repository.ts';

/** The logs table's columns in the order of the prepared insert. */
export const LOG_COLUMNS = [
  'user_id',
  'created_at',
  'type',
  'content',
  'username',
  'token_name',
  'model_name',
  'quota',
  'prompt_tokens',
  'completion_tokens',
  'use_time',
  'is_stream',
  'channel_id',
  'token_id',
  'group',
  'ip',
  'other',
] as const;

const DEFAULTS: Readonly<Record<string, unknown>> = LOG_COLUMN_DEFAULTS;

/**
 * A consume log row as an insert's values, in LOG_COLUMNS order, with what a multi-row insert
 * needs filled in (the settlement time, the columns' defaults), without building the object.
 */
export function logValues(log: NewLog, at: number): unknown[] {
  const row = log as Record<string, unknown>;
  const values: unknown[] = new Array(LOG_COLUMNS.length);
  for (let index = 0; index < LOG_COLUMNS.length; index++) {
    const column = LOG_COLUMNS[index]!;
    const value = row[column];
    values[index] = value ?? (column === 'created_at' ? at : (DEFAULTS[column] ?? null));
  }
  return values;
}

/** A prepared statement with one parameter per LOG_COLUMNS entry (better-sqlite3's shape). */
export interface LogRowStatement {
  run(...values: unknown[]): unknown;
}

// runLogRow passes LOG_COLUMNS.length values one by one: this fails to compile when a column is
// added or removed until it is updated.
const COLUMN_COUNT: 17 = LOG_COLUMNS.length;

/**
 * Runs `statement` with a row's values (logValues' order) as separate arguments: better-sqlite3
 * binds an array argument through slower element reads than its arguments (measured in session
 * 35: 5.6 against 6.8 µs for a journal row).
 */
export function runLogRow(statement: LogRowStatement, v: readonly unknown[]): void {
  if (v.length !== COLUMN_COUNT) throw new Error(`a log row has ${COLUMN_COUNT} values, got ${v.length}`);
  statement.run(
    v[0],
    v[1],
    v[2],
    v[3],
    v[4],
    v[5],
    v[6],
    v[7],
    v[8],
    v[9],
    v[10],
    v[11],
    v[12],
    v[13],
    v[14],
    v[15],
    v[16],
  );
}
