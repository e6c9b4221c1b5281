import { LOG_COLUMN_DEFAULTS, type NewLog } from '../db/repositories/log-repository.ts';

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
 * A consume log row as the prepared insert's values, in LOG_COLUMNS order: what completeLogRow
 * fills in (the settlement time, the columns' defaults), without building the object.
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
