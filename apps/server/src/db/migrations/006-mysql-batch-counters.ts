import { type Kysely, sql } from 'kysely';
import { dialectOf } from './column-types.ts';

/**
 * MySQL/MariaDB: the settlement writer's batch ends with one CALL that adds its counters and
 * commits (billing/ledger/mysql/mysql-settlement-batch.ts), so the user, token and channel rows are locked only inside
 * the server, as PostgreSQL's batch does with one message. Otherwise each counter
 * UPDATE and the COMMIT would be a round trip of their own through a busy event loop, and every
 * reservation of the batch's users would wait behind the row lock the first UPDATE took.
 * Arguments are JSON arrays of [id, quota, requests] (users), [id, quota, accessed_at] (tokens)
 * and [id, quota] (channels), ids ascending; rows are updated one by one in that order, so every
 * node locks them in the same order. The procedure commits the caller's transaction (the ledger
 * deletes and log rows sent before the CALL); any error rolls all of it back and is raised again.
 * PostgreSQL and SQLite need nothing here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'mysql') return;
  await sql.raw('DROP PROCEDURE IF EXISTS switchyard_batch_counters').execute(db);
  await sql.raw(PROCEDURE).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Switchyard migrations are forward-only');
}

/** The element `index`, field `field` of a JSON array of arrays, as an integer. */
const at = (list: string, field: number) =>
  `CAST(JSON_EXTRACT(${list}, CONCAT('$[', i, '][${field}]')) AS SIGNED)`;

const PROCEDURE = `CREATE PROCEDURE switchyard_batch_counters(IN p_users longtext, IN p_tokens longtext, IN p_channels longtext)
  BEGIN
    DECLARE i int DEFAULT 0;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
    WHILE i < JSON_LENGTH(p_users) DO
      UPDATE users SET used_quota = used_quota + ${at('p_users', 1)}, request_count = request_count + ${at('p_users', 2)}
        WHERE id = ${at('p_users', 0)};
      SET i = i + 1;
    END WHILE;
    SET i = 0;
    WHILE i < JSON_LENGTH(p_tokens) DO
      UPDATE tokens SET used_quota = used_quota + ${at('p_tokens', 1)}, accessed_time = ${at('p_tokens', 2)}
        WHERE id = ${at('p_tokens', 0)};
      SET i = i + 1;
    END WHILE;
    SET i = 0;
    WHILE i < JSON_LENGTH(p_channels) DO
      UPDATE channels SET used_quota = used_quota + ${at('p_channels', 1)} WHERE id = ${at('p_channels', 0)};
      SET i = i + 1;
    END WHILE;
    COMMIT;
  END`;
