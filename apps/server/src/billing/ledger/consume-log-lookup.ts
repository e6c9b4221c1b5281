import { LogType } from '@switchyard/shared';
import { type Kysely, type SqlBool, sql } from 'kysely';
import { escapeLike } from '../../db/like-pattern.ts';
import type { Database } from '../../db/schema.ts';

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
