import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';

/**
 * id → name of the given channels, read from the main database: logs may live in their own
 * database (LOG_SQL_DSN), so log queries never JOIN channels. Deleted channels are absent.
 */
export async function readChannelNames(
  db: Kysely<Database>,
  ids: Iterable<number>,
): Promise<Map<number, string>> {
  const wanted = [...new Set(ids)].filter((id) => id > 0);
  if (wanted.length === 0) return new Map();
  const found = await db.selectFrom('channels').select(['id', 'name']).where('id', 'in', wanted).execute();
  return new Map(found.map((channel) => [Number(channel.id), channel.name]));
}
