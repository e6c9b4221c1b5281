import type { Kysely, Selectable } from 'kysely';
import type { Database, LogTable } from '../schema.ts';
import { applyLogFilter, type LogFilter, type LogQuery } from './log-filter.ts';

/** Up to this many exact model names, rows are read name by name and merged. */
export const MAX_MERGED_MODEL_NAMES = 64;

/** Where a keyset read resumes: strictly after this row in the list's order. */
export interface LogKeysetCursor {
  createdAt: number;
  id: number;
}

export interface NewestRowsPaging {
  offset: number;
  limit: number;
  /** Keyset reads: only rows after this one (from the newest when absent). */
  after?: LogKeysetCursor | null;
}

/** Rows strictly after the cursor in (created_at, id) descending order. */
function afterCursor(query: LogQuery, after: LogKeysetCursor): LogQuery {
  // (created_at, id) < (after.createdAt, after.id), spelled out the same way on the three
  // databases; the plain `created_at <= …` beside it lets each one range-scan a created_at index.
  return query
    .where('created_at', '<=', after.createdAt)
    .where((eb) =>
      eb.or([
        eb('created_at', '<', after.createdAt),
        eb.and([eb('created_at', '=', after.createdAt), eb('id', '<', after.id)]),
      ]),
    );
}

/**
 * Matching rows, newest first (created_at, then id, both descending), from `offset`, at most
 * `limit`. Several exact model names are read name by name (each from its index in time order,
 * at most offset + limit rows) and merged, rather than left to a planner that may sort every row
 * of a popular model. Not when another column's index drives the query (SQLite, driveBy): that
 * index reads the rows in time order already, and each name would re-read it.
 */
export function newestLogRows(
  db: Kysely<Database>,
  filter: LogFilter,
  paging: NewestRowsPaging,
): Promise<Selectable<LogTable>[]> {
  return newestLogRowsQuery(db, filter, paging).execute() as Promise<Selectable<LogTable>[]>;
}

/** The query newestLogRows runs (its plan is what tests examine). */
export function newestLogRowsQuery(db: Kysely<Database>, filter: LogFilter, paging: NewestRowsPaging) {
  const matching = (only: LogFilter) => {
    const query = applyLogFilter(db.selectFrom('logs').selectAll(), only);
    return (paging.after ? afterCursor(query, paging.after) : query) as typeof query;
  };
  const names = filter.modelNames;
  const merge =
    names !== undefined &&
    names.length > 1 &&
    names.length <= MAX_MERGED_MODEL_NAMES &&
    (filter.driveBy ?? 'model_name') === 'model_name';
  if (!merge) {
    return matching(filter)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(paging.offset)
      .limit(paging.limit);
  }
  const branch = (name: string, i: number) =>
    db
      .selectFrom(
        matching({ ...filter, modelNames: [name] })
          .orderBy('created_at', 'desc')
          .orderBy('id', 'desc')
          .limit(paging.offset + paging.limit)
          .as(`m${i}`),
      )
      .selectAll();
  let merged = branch(names[0]!, 0);
  for (let i = 1; i < names.length; i++) merged = merged.unionAll(branch(names[i]!, i));
  return db
    .selectFrom(merged.as('merged'))
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .offset(paging.offset)
    .limit(paging.limit);
}
