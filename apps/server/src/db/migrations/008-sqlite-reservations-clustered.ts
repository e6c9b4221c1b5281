import { type Kysely, sql } from 'kysely';
import { dialectOf } from './column-types.ts';

/** The reservations columns of migrations 002 and 003, in order. */
const COLUMNS =
  'id, request_id, user_id, token_id, token_limited, amount, created_at, state, instance_id, charged, channel_id, entry';

/**
 * SQLite: the reservations table becomes a WITHOUT ROWID table, stored in one b-tree ordered by
 * its id. Its text primary key used to be a second b-tree beside the rowid table, so every
 * reservation's insert and every settlement's delete changed both, and each commit wrote both
 * trees' pages to the WAL. The table holds only calls in flight (and settled rows waiting for the
 * settlement writer), so the rebuild copies a handful of rows. PostgreSQL and MySQL (InnoDB)
 * already cluster a table by its primary key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  // Kysely runs SQLite migrations outside a transaction: this one takes its own, so a process
  // stopped halfway leaves the old table as it was.
  await db.transaction().execute(async (trx) => {
    await sql
      .raw(`CREATE TABLE reservations_clustered (
        id varchar(40) NOT NULL PRIMARY KEY,
        request_id varchar(64) NOT NULL DEFAULT '',
        user_id integer NOT NULL DEFAULT 0,
        token_id integer NOT NULL DEFAULT 0,
        token_limited integer NOT NULL DEFAULT 0,
        amount bigint NOT NULL DEFAULT 0,
        created_at bigint NOT NULL DEFAULT 0,
        state varchar(16) NOT NULL DEFAULT 'reserved',
        instance_id varchar(40) NOT NULL DEFAULT '',
        charged bigint NOT NULL DEFAULT 0,
        channel_id integer NOT NULL DEFAULT 0,
        entry text
      ) WITHOUT ROWID`)
      .execute(trx);
    await sql
      .raw(`INSERT INTO reservations_clustered (${COLUMNS}) SELECT ${COLUMNS} FROM reservations`)
      .execute(trx);
    await sql.raw('DROP TABLE reservations').execute(trx);
    await sql.raw('ALTER TABLE reservations_clustered RENAME TO reservations').execute(trx);
  });
}

export async function down(): Promise<void> {
  throw new Error('Switchyard migrations are forward-only');
}
