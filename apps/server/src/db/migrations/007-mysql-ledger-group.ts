import { type Kysely, sql } from 'kysely';
import {
  MYSQL_REFUND_BODY,
  MYSQL_RESERVE_BODY,
  MYSQL_SETTLE_BODY,
  mysqlRoutines,
} from './005-ledger-routines.ts';
import { dialectOf } from './column-types.ts';

/**
 * MySQL/MariaDB: one user's ledger calls of one event-loop turn go to the server as one
 * `CALL switchyard_ledger_group(calls)` (routine-groups.ts), as PostgreSQL's share one SELECT
 * (ADR-22). In the MariaDB variant of the benchmark each CALL alone was a socket write
 * that wakes a server thread (on this virtual machine ~100 µs of the gateway's CPU each) and a
 * commit that waits for the redo log's flush; at 500 req/s most server threads sat in `Commit`.
 * `calls` is a JSON array of `["reserve", id, request_id, user, token, limited, amount,
 * created_at, instance]`, `["settle", id, user, token, limited, reserved, target, channel, entry]`
 * and `["refund", id, user, token, limited, amount]`; they run in order, in one transaction with
 * one commit, each with the statements of its own procedure (migration 005). A call its procedure
 * would roll back (a refusal) is rolled back to its savepoint alone. The answer is one row,
 * `result`: the calls' codes, comma-separated, in order. Any SQL error rolls the whole group back
 * and is raised again (the caller then sends each call alone).
 *
 * Every ledger procedure (005's again, and this one) now runs its transaction at READ COMMITTED.
 * Under InnoDB's default REPEATABLE READ a statement could lock the gap next to a ledger row
 * (next-key locks, up to the table's end), and a reservation inserting its row there waited. A
 * group that had taken the user's row in an earlier call then waited on such a gap held by a
 * transaction waiting for that user's row: deadlocks every few seconds at 500 req/s in the
 * benchmark. The procedures read and change rows by primary key and need no gap locks; their
 * conditional updates (`quota >= amount`) are atomic under row locks at any isolation level.
 * PostgreSQL and SQLite need nothing here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'mysql') return;
  for (const statement of mysqlRoutines(READ_COMMITTED)) await sql.raw(statement).execute(db);
  await sql.raw('DROP PROCEDURE IF EXISTS switchyard_ledger_group').execute(db);
  await sql.raw(PROCEDURE).execute(db);
}

/** Applies to the next transaction only: the pooled connection keeps its own level otherwise. */
const READ_COMMITTED = 'SET TRANSACTION ISOLATION LEVEL READ COMMITTED;';

export async function down(): Promise<void> {
  throw new Error('Switchyard migrations are forward-only');
}

/**
 * Field `index` of the current call, as JSON. The call is taken out of the group's document once
 * (`v_call`) and its fields out of that: every JSON_EXTRACT parses its whole document, and fields
 * read from the group's would cost each call a parse of every call.
 */
const field = (index: number) => `JSON_EXTRACT(v_call, '$[${index}]')`;
const integer = (index: number) => `CAST(${field(index)} AS SIGNED)`;
const text = (index: number) => `JSON_UNQUOTE(${field(index)})`;

const PROCEDURE = `CREATE PROCEDURE switchyard_ledger_group(IN p_calls longtext CHARACTER SET utf8mb4)
  BEGIN
    DECLARE i int DEFAULT 0;
    DECLARE v_count int DEFAULT JSON_LENGTH(p_calls);
    DECLARE v_call longtext CHARACTER SET utf8mb4;
    DECLARE v_kind varchar(16);
    DECLARE v_result int DEFAULT 0;
    DECLARE v_codes text DEFAULT '';
    DECLARE p_id varchar(40);
    DECLARE p_request_id varchar(64);
    DECLARE p_user int;
    DECLARE p_token int;
    DECLARE p_limited int;
    DECLARE p_amount bigint;
    DECLARE p_created_at bigint;
    DECLARE p_instance varchar(40);
    DECLARE p_reserved bigint;
    DECLARE p_target bigint;
    DECLARE p_channel int;
    DECLARE p_entry text CHARACTER SET utf8mb4;
    DECLARE v_more bigint;
    DECLARE EXIT HANDLER FOR SQLEXCEPTION BEGIN ROLLBACK; RESIGNAL; END;
    ${READ_COMMITTED}
    START TRANSACTION;
    WHILE i < v_count DO
      SET v_call = JSON_EXTRACT(p_calls, CONCAT('$[', i, ']'));
      SET v_kind = ${text(0)};
      SET v_result = 0;
      SAVEPOINT switchyard_call;
      IF v_kind = 'reserve' THEN
        SET p_id = ${text(1)}, p_request_id = ${text(2)}, p_user = ${integer(3)}, p_token = ${integer(4)},
          p_limited = ${integer(5)}, p_amount = ${integer(6)}, p_created_at = ${integer(7)}, p_instance = ${text(8)};
${MYSQL_RESERVE_BODY}
        IF v_result <> 0 THEN ROLLBACK TO SAVEPOINT switchyard_call; END IF;
      ELSEIF v_kind = 'settle' THEN
        SET p_id = ${text(1)}, p_user = ${integer(2)}, p_token = ${integer(3)}, p_limited = ${integer(4)},
          p_reserved = ${integer(5)}, p_target = ${integer(6)}, p_channel = ${integer(7)}, p_entry = ${text(8)};
        SET v_more = p_target - p_reserved;
${MYSQL_SETTLE_BODY}
        IF v_result <> 0 THEN ROLLBACK TO SAVEPOINT switchyard_call; END IF;
      ELSEIF v_kind = 'refund' THEN
        SET p_id = ${text(1)}, p_user = ${integer(2)}, p_token = ${integer(3)}, p_limited = ${integer(4)},
          p_amount = ${integer(5)};
${MYSQL_REFUND_BODY}
        IF v_result <> 1 THEN ROLLBACK TO SAVEPOINT switchyard_call; END IF;
      ELSE
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'switchyard_ledger_group: unknown call';
      END IF;
      SET v_codes = IF(i = 0, CAST(v_result AS CHAR), CONCAT(v_codes, ',', v_result));
      SET i = i + 1;
    END WHILE;
    COMMIT;
    SELECT v_codes AS result;
  END`;
