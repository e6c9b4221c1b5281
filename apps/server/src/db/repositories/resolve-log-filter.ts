import type { Kysely } from 'kysely';
import { dialectOf } from '../migrations/column-types.ts';
import type { Database } from '../schema.ts';
import type { LogFilter } from './log-filter.ts';
import { withDrivingIndex } from './log-index-choice.ts';
import {
  distinctModelNames,
  MAX_RESOLVED_MODEL_NAMES,
  namesContaining,
  requestIdWindow,
} from './log-list-query.ts';

/**
 * A list's filter as the queries read it (ADR-48): the model pattern resolved to the exact names
 * it matches, a request id's time window intersected with the range, and on SQLite the index that
 * drives the query. null = matches nothing. The log list and its CSV export both read through
 * this, so they answer the same rows.
 */
export async function resolveLogFilter(db: Kysely<Database>, filter: LogFilter): Promise<LogFilter | null> {
  const kind = dialectOf(db as Kysely<unknown>);
  let resolved = filter;
  if (filter.modelName && !filter.modelNames) {
    const names = namesContaining(await distinctModelNames(db, kind), filter.modelName);
    if (names.length === 0) return null;
    if (names.length <= MAX_RESOLVED_MODEL_NAMES) resolved = { ...resolved, modelNames: names };
  }
  const window = filter.requestId ? requestIdWindow(filter.requestId) : null;
  if (window) {
    const start = Math.max(filter.start || 0, window.start);
    const end = filter.end ? Math.min(filter.end, window.end) : window.end;
    if (start > end) return null;
    resolved = { ...resolved, start, end };
  }
  return kind === 'sqlite' ? withDrivingIndex(db, resolved) : resolved;
}
