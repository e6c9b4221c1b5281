import { type Kysely, sql } from 'kysely';
import { dialectOf } from './column-types.ts';

/**
 * Reserve, settle and refund as one server-side routine each on PostgreSQL (functions) and
 * MySQL/MariaDB (procedures), so a relay call's row locks live only inside the database for the
 * length of one call instead of across several client round trips through a busy event loop
 * (one user's calls were serialised at ~150 req/s; see docs/benchmarks-postgres-redis.md).
 * The statements and their lock order are those of the transactions they replace (ledger row,
 * then user, then token). A routine that cannot finish the common case (settle of a row already
 * reconciled, or a cost beyond the reservation that the balance cannot cover) changes nothing and
 * says so: the caller then runs the general transaction (billing-service.ts).
 * Codes: reserve 0 = held, 1 = user short, 2 = token short; settle 0 = settled, 1 = row not
 * reserved any more, 2 = balance short; refund 1 = refunded, 0 = nothing to refund.
 * SQLite needs none of this: its hot statements run synchronously in-process (sqlite-ledger.ts).
 *
 * Durability: PostgreSQL's routines commit with `synchronous_commit = off` (for their own
 * transaction only), the class SQLite runs in (WAL, synchronous=NORMAL): a crash of Switchyard
 * loses nothing, a crash of the database server's machine may lose its last few hundred
 * milliseconds of reservations and settlements, never half of one. Otherwise each call waited
 * for two WAL flushes while holding the user's row lock (ADR-21). MySQL's flush policy is global
 * (innodb_flush_log_at_trx_commit) and left to the operator.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const kind = dialectOf(db);
  if (kind === 'postgres') {
    for (const statement of POSTGRES_ROUTINES) await sql.raw(statement).execute(db);
  } else if (kind === 'mysql') {
    for (const statement of mysqlRoutines()) await sql.raw(statement).execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Switchyard migrations are forward-only');
}

/** A PL/pgSQL function answering an integer code; its transaction skips the WAL-flush wait. */
const postgresFunction = (name: string, params: string, body: string, declare = '') =>
  `CREATE OR REPLACE FUNCTION ${name}(${params})
  RETURNS integer LANGUAGE plpgsql AS $$
  ${declare ? `DECLARE\n    ${declare}\n  ` : ''}BEGIN
    PERFORM set_config('synchronous_commit', 'off', true);
${body}
  END $$`;

/**
 * A MySQL procedure in a transaction of its own: MySQL would otherwise commit each statement
 * alone. `body` sets v_result; the work commits only when it equals `committedWhen`, and any SQL
 * error rolls it back before being raised again. The code is the procedure's one-row result.
 */
export const mysqlProcedure = (
  name: string,
  params: string,
  body: string,
  committedWhen: 0 | 1,
  declare = '',
  /** A statement run before the transaction starts (migration 007 sets its isolation level). */
  before = '',
) => [
  `DROP PROCEDURE IF EXISTS ${name}`,
  `CREATE PROCEDURE ${name}(${params})
  BEGIN
    DECLARE v_result int DEFAULT 0;${declare ? `\n    ${declare}` : ''}
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;${before ? `\n    ${before}` : ''}
    START TRANSACTION;
${body}
    IF v_result = ${committedWhen} THEN COMMIT; ELSE ROLLBACK; END IF;
    SELECT v_result AS result;
  END`,
];

const POSTGRES_ROUTINES = [
  postgresFunction(
    'switchyard_reserve',
    `p_id varchar, p_request_id varchar, p_user integer, p_token integer, p_limited integer,
    p_amount bigint, p_created_at bigint, p_instance varchar`,
    `    INSERT INTO reservations (id, request_id, user_id, token_id, token_limited, amount, created_at, instance_id)
      VALUES (p_id, p_request_id, p_user, p_token, p_limited, p_amount, p_created_at, p_instance);
    UPDATE users SET quota = quota - p_amount WHERE id = p_user AND quota >= p_amount;
    IF NOT FOUND THEN
      DELETE FROM reservations WHERE id = p_id;
      RETURN 1;
    END IF;
    IF p_limited = 1 THEN
      UPDATE tokens SET remain_quota = remain_quota - p_amount WHERE id = p_token AND remain_quota >= p_amount;
      IF NOT FOUND THEN
        UPDATE users SET quota = quota + p_amount WHERE id = p_user;
        DELETE FROM reservations WHERE id = p_id;
        RETURN 2;
      END IF;
    END IF;
    RETURN 0;`,
  ),
  postgresFunction(
    'switchyard_refund',
    'p_id varchar, p_user integer, p_token integer, p_limited integer, p_amount bigint',
    `    DELETE FROM reservations WHERE id = p_id AND state = 'reserved';
    IF NOT FOUND THEN
      RETURN 0;
    END IF;
    UPDATE users SET quota = quota + p_amount WHERE id = p_user;
    IF p_limited = 1 THEN
      UPDATE tokens SET remain_quota = remain_quota + p_amount WHERE id = p_token;
    END IF;
    RETURN 1;`,
  ),
  postgresFunction(
    'switchyard_settle',
    `p_id varchar, p_user integer, p_token integer, p_limited integer, p_reserved bigint,
    p_target bigint, p_channel integer, p_entry text`,
    `    UPDATE reservations SET state = 'settled', charged = p_target, channel_id = p_channel, entry = p_entry
      WHERE id = p_id AND state = 'reserved';
    IF NOT FOUND THEN
      RETURN 1;
    END IF;
    IF v_more < 0 THEN
      UPDATE users SET quota = quota - v_more WHERE id = p_user;
      IF p_limited = 1 THEN
        UPDATE tokens SET remain_quota = remain_quota - v_more WHERE id = p_token;
      END IF;
    ELSIF v_more > 0 THEN
      UPDATE users SET quota = quota - v_more WHERE id = p_user AND quota >= v_more;
      IF NOT FOUND THEN
        UPDATE reservations SET state = 'reserved', charged = 0, channel_id = 0, entry = NULL WHERE id = p_id;
        RETURN 2;
      END IF;
      IF p_limited = 1 THEN
        UPDATE tokens SET remain_quota = remain_quota - v_more WHERE id = p_token AND remain_quota >= v_more;
        IF NOT FOUND THEN
          UPDATE users SET quota = quota + v_more WHERE id = p_user;
          UPDATE reservations SET state = 'reserved', charged = 0, channel_id = 0, entry = NULL WHERE id = p_id;
          RETURN 2;
        END IF;
      END IF;
    END IF;
    RETURN 0;`,
    'v_more bigint := p_target - p_reserved;',
  ),
];

/**
 * The MySQL procedures' bodies (each sets v_result), shared with the group procedure of migration
 * 007: parameters p_*, settle's v_more declared by the caller.
 */
export const MYSQL_RESERVE_BODY = `    INSERT INTO reservations (id, request_id, user_id, token_id, token_limited, amount, created_at, instance_id)
      VALUES (p_id, p_request_id, p_user, p_token, p_limited, p_amount, p_created_at, p_instance);
    UPDATE users SET quota = quota - p_amount WHERE id = p_user AND quota >= p_amount;
    IF ROW_COUNT() = 0 THEN
      SET v_result = 1;
    ELSEIF p_limited = 1 THEN
      UPDATE tokens SET remain_quota = remain_quota - p_amount WHERE id = p_token AND remain_quota >= p_amount;
      IF ROW_COUNT() = 0 THEN
        SET v_result = 2;
      END IF;
    END IF;`;

export const MYSQL_REFUND_BODY = `    DELETE FROM reservations WHERE id = p_id AND state = 'reserved';
    IF ROW_COUNT() > 0 THEN
      SET v_result = 1;
      UPDATE users SET quota = quota + p_amount WHERE id = p_user;
      IF p_limited = 1 THEN
        UPDATE tokens SET remain_quota = remain_quota + p_amount WHERE id = p_token;
      END IF;
    END IF;`;

export const MYSQL_SETTLE_BODY = `    UPDATE reservations SET state = 'settled', charged = p_target, channel_id = p_channel, entry = p_entry
      WHERE id = p_id AND state = 'reserved';
    IF ROW_COUNT() = 0 THEN
      SET v_result = 1;
    ELSEIF v_more < 0 THEN
      UPDATE users SET quota = quota - v_more WHERE id = p_user;
      IF p_limited = 1 THEN
        UPDATE tokens SET remain_quota = remain_quota - v_more WHERE id = p_token;
      END IF;
    ELSEIF v_more > 0 THEN
      UPDATE users SET quota = quota - v_more WHERE id = p_user AND quota >= v_more;
      IF ROW_COUNT() = 0 THEN
        SET v_result = 2;
      ELSEIF p_limited = 1 THEN
        UPDATE tokens SET remain_quota = remain_quota - v_more WHERE id = p_token AND remain_quota >= v_more;
        IF ROW_COUNT() = 0 THEN
          SET v_result = 2;
        END IF;
      END IF;
    END IF;`;

/** Migration 005's MySQL procedures; migration 007 creates them again with a `before` statement. */
export const mysqlRoutines = (before = '') => [
  ...mysqlProcedure(
    'switchyard_reserve',
    `IN p_id varchar(40), IN p_request_id varchar(64), IN p_user int, IN p_token int, IN p_limited int,
    IN p_amount bigint, IN p_created_at bigint, IN p_instance varchar(40)`,
    MYSQL_RESERVE_BODY,
    0,
    '',
    before,
  ),
  ...mysqlProcedure(
    'switchyard_refund',
    'IN p_id varchar(40), IN p_user int, IN p_token int, IN p_limited int, IN p_amount bigint',
    MYSQL_REFUND_BODY,
    1,
    '',
    before,
  ),
  ...mysqlProcedure(
    'switchyard_settle',
    `IN p_id varchar(40), IN p_user int, IN p_token int, IN p_limited int, IN p_reserved bigint,
    IN p_target bigint, IN p_channel int, IN p_entry text`,
    MYSQL_SETTLE_BODY,
    0,
    'DECLARE v_more bigint DEFAULT p_target - p_reserved;',
    before,
  ),
];
