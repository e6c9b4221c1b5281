import { LogType } from '@switchyard/shared';
import { type Kysely, type SqlBool, sql } from 'kysely';
import type { DatabaseKind } from '../../config/env.ts';
import type { DatabaseHandle } from '../../db/database.ts';
import { escapeLike } from '../../db/like-pattern.ts';
import type { NewLog } from '../../db/repositories/log-repository.ts';
import type { Database } from '../../db/schema.ts';
import type { PendingSettlement } from '../settlement/settlement-entry.ts';
import type { Executor } from './balance-moves.ts';
import { logInsertQuery } from './routines/compiled-statements.ts';

/**
 * Inserts consume log rows (none when logging was off for all of them) as one statement, its text
 * built once per row count (compiled-statements.ts). On SQLite only a separate log database takes
 * them here: the main one takes them through its log journal.
 */
export async function insertConsumeLogs(
  executor: Executor,
  items: readonly Pick<PendingSettlement, 'log' | 'at'>[],
  kind: DatabaseKind,
): Promise<void> {
  const rows: { log: NonNullable<PendingSettlement['log']>; at: number }[] = [];
  for (const item of items) if (item.log) rows.push({ log: item.log, at: item.at });
  if (rows.length > 0) await executor.executeQuery(logInsertQuery(kind, rows));
}

/**
 * The consume log row a request wrote, if any (quota charged and channel): how reconciliation and
 * a move into a separate log database tell a row already written from one still missing.
 */
export async function findConsumeLog(
  logs: Kysely<Database>,
  row: { request_id: string | null; user_id: number; created_at: number },
) {
  if (!row.request_id) return undefined;
  const candidates = await logs
    .selectFrom('logs')
    .select(['quota', 'channel_id', 'other'])
    .where('type', '=', LogType.Consume)
    .where('user_id', '=', row.user_id)
    .where('created_at', '>=', Math.floor(Number(row.created_at) / 1000) - 1)
    .where(sql<SqlBool>`other like ${`%"request_id":"${escapeLike(row.request_id)}"%`} escape '!'`)
    .execute();
  return candidates.find((log) => requestIdOf(log.other) === row.request_id);
}

/** The `request_id` a log row's `other` column records ('' when none can be read). */
export function requestIdOf(other: unknown): string {
  try {
    const id = (JSON.parse(typeof other === 'string' ? other : '{}') as { request_id?: unknown }).request_id;
    return typeof id === 'string' ? id : '';
  } catch {
    return '';
  }
}

/** Rows per INSERT into a separate log database (its parameters stay well under every limit). */
const FOREIGN_INSERT_ROWS = 200;

/**
 * Inserts consume log rows into a separate log database, FOREIGN_INSERT_ROWS per statement. With
 * `uncertain` (an earlier attempt may have inserted them before it failed) a row whose request
 * already has its consume log there is not inserted again. Answers how many it inserted.
 */
export async function insertMissingConsumeLogs(
  logs: DatabaseHandle,
  rows: readonly { log: NewLog; at: number }[],
  uncertain: boolean,
): Promise<number> {
  const fresh: { log: NewLog; at: number }[] = [];
  for (const row of rows) {
    const requestId = requestIdOf(row.log.other);
    const written =
      uncertain &&
      requestId !== '' &&
      (await findConsumeLog(logs.db, {
        request_id: requestId,
        user_id: Number(row.log.user_id),
        created_at: row.at * 1000,
      }));
    if (!written) fresh.push(row);
  }
  for (let from = 0; from < fresh.length; from += FOREIGN_INSERT_ROWS) {
    await insertConsumeLogs(logs.db, fresh.slice(from, from + FOREIGN_INSERT_ROWS), logs.kind);
  }
  return fresh.length;
}
