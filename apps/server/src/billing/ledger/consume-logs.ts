import { LogType } from '@switchyard/shared';
import { type Kysely, type SqlBool, sql } from 'kysely';
import type { DatabaseKind } from '../../config/env.ts';
import { escapeLike } from '../../db/like-pattern.ts';
import type { Database } from '../../db/schema.ts';
import { completeLogRow, type PendingSettlement } from '../settlement/settlement-entry.ts';
import type { Executor } from './balance-moves.ts';
import { logInsertQuery } from './routines/compiled-statements.ts';

/**
 * Inserts consume log rows (none when logging was off for all of them) as one statement: on
 * PostgreSQL and MySQL its text is built once per row count (compiled-statements.ts); on SQLite
 * (a separate SQLite log database: the main one takes them through its log journal) through Kysely.
 */
export async function insertConsumeLogs(
  executor: Executor,
  items: readonly Pick<PendingSettlement, 'log' | 'at'>[],
  kind: DatabaseKind,
): Promise<void> {
  if (kind === 'sqlite') {
    const rows = items.flatMap((item) => (item.log ? [completeLogRow(item.log, item.at)] : []));
    if (rows.length > 0) await executor.insertInto('logs').values(rows).execute();
    return;
  }
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
  return candidates.find((log) => {
    try {
      return (JSON.parse(log.other ?? '{}') as { request_id?: unknown }).request_id === row.request_id;
    } catch {
      return false;
    }
  });
}
