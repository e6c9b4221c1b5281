/**
 * The MySQL/MariaDB ledger procedures' SQL text:
 * - `switchyard_reserve`, `switchyard_refund`, `switchyard_settle`: one relay call's ledger step
 *   each (`../routines/server-ledger.ts`), so its row locks live only inside the database for the
 *   length of one call instead of across several client round trips through a busy event loop
 *   (one user's calls were serialised at ~150 req/s; see docs/benchmarks-postgres-redis.md). The
 *   statements and their lock order are those of the transactions they replace (ledger row, then
 *   user, then token). A procedure that cannot finish the common case changes nothing and says
 *   so: the caller then runs the general transaction. Codes: reserve 0 = held, 1 = user short,
 *   2 = token short; settle 0 = settled, 1 = row not reserved any more, 2 = balance short;
 *   refund 1 = refunded, 0 = nothing to refund.
 * - `switchyard_ledger_group`: one user's calls of one event-loop turn in one CALL
 *   (`mysql-statements.ts`, `../routines/routine-groups.ts`, ADR-25).
 * - `switchyard_batch_counters`: the end of the settlement writer's batch (`mysql-settlement-batch.ts`).
 * MySQL's flush policy is global (innodb_flush_log_at_trx_commit) and left to the operator.
 *
 * Installed by migrations 005 (the three steps at the connection's isolation level), 006 (batch
 * counters) and 007 (the three steps again at READ COMMITTED, then the group), which import this
 * text: this file is pure SQL text and imports nothing, so `db` may import it. Changing a
 * procedure needs a new migration that runs the changed statements (with their DROP): databases
 * already migrated never run 005–007 again. On a fresh database the old migrations then install
 * the new text too, which is harmless because the new migration installs the same text again.
 */

/**
 * Every ledger procedure runs its transaction at READ COMMITTED. Under InnoDB's default
 * REPEATABLE READ a statement could lock the gap next to a ledger row (next-key locks, up to the
 * table's end), and a reservation inserting its row there waited. A group that had taken the
 * user's row in an earlier call then waited on such a gap held by a transaction waiting for that
 * user's row: deadlocks every few seconds at 500 req/s in the benchmark. The procedures read and
 * change rows by primary key and need no gap locks; their conditional updates
 * (`quota >= amount`) are atomic under row locks at any isolation level.
 * Applies to the next transaction only: the pooled connection keeps its own level otherwise.
 */
export const MYSQL_READ_COMMITTED = 'SET TRANSACTION ISOLATION LEVEL READ COMMITTED;';

/**
 * A MySQL procedure in a transaction of its own: MySQL would otherwise commit each statement
 * alone. `body` sets v_result; the work commits only when it equals `committedWhen`, and any SQL
 * error rolls it back before being raised again. The code is the procedure's one-row result.
 */
const mysqlProcedure = (
  name: string,
  params: string,
  body: string,
  committedWhen: 0 | 1,
  declare = '',
  /** A statement run before the transaction starts (its isolation level). */
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

/* The steps' bodies (each sets v_result), shared with the group: parameters p_*, settle's v_more
   declared by the procedure around them. */

const RESERVE_BODY = `    INSERT INTO reservations (id, request_id, user_id, token_id, token_limited, amount, created_at, instance_id)
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

const REFUND_BODY = `    DELETE FROM reservations WHERE id = p_id AND state = 'reserved';
    IF ROW_COUNT() > 0 THEN
      SET v_result = 1;
      UPDATE users SET quota = quota + p_amount WHERE id = p_user;
      IF p_limited = 1 THEN
        UPDATE tokens SET remain_quota = remain_quota + p_amount WHERE id = p_token;
      END IF;
    END IF;`;

const SETTLE_BODY = `    UPDATE reservations SET state = 'settled', charged = p_target, channel_id = p_channel, entry = p_entry
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

/**
 * DROP and CREATE of `switchyard_reserve`, `switchyard_refund` and `switchyard_settle`, in that
 * order; `before` runs ahead of each transaction (`MYSQL_READ_COMMITTED`, or nothing in 005).
 */
export const mysqlLedgerRoutines = (before = ''): string[] => [
  ...mysqlProcedure(
    'switchyard_reserve',
    `IN p_id varchar(40), IN p_request_id varchar(64), IN p_user int, IN p_token int, IN p_limited int,
    IN p_amount bigint, IN p_created_at bigint, IN p_instance varchar(40)`,
    RESERVE_BODY,
    0,
    '',
    before,
  ),
  ...mysqlProcedure(
    'switchyard_refund',
    'IN p_id varchar(40), IN p_user int, IN p_token int, IN p_limited int, IN p_amount bigint',
    REFUND_BODY,
    1,
    '',
    before,
  ),
  ...mysqlProcedure(
    'switchyard_settle',
    `IN p_id varchar(40), IN p_user int, IN p_token int, IN p_limited int, IN p_reserved bigint,
    IN p_target bigint, IN p_channel int, IN p_entry text`,
    SETTLE_BODY,
    0,
    'DECLARE v_more bigint DEFAULT p_target - p_reserved;',
    before,
  ),
];

/**
 * Field `index` of the current call, as JSON. The call is taken out of the group's document once
 * (`v_call`) and its fields out of that: every JSON_EXTRACT parses its whole document, and fields
 * read from the group's would cost each call a parse of every call.
 */
const field = (index: number) => `JSON_EXTRACT(v_call, '$[${index}]')`;
const integer = (index: number) => `CAST(${field(index)} AS SIGNED)`;
const text = (index: number) => `JSON_UNQUOTE(${field(index)})`;

/**
 * `switchyard_ledger_group(calls)`: one user's ledger calls of one event-loop turn, as
 * PostgreSQL's share one SELECT (ADR-22). In the MariaDB variant of the benchmark each CALL alone
 * was a socket write that wakes a server thread (on this virtual machine ~100 µs of the gateway's
 * CPU each) and a commit that waits for the redo log's flush; at 500 req/s most server threads
 * sat in `Commit`. `calls` is a JSON array of `["reserve", id, request_id, user, token, limited,
 * amount, created_at, instance]`, `["settle", id, user, token, limited, reserved, target,
 * channel, entry]` and `["refund", id, user, token, limited, amount]`; they run in order, in one
 * transaction with one commit, each with the statements of its own procedure. A call its
 * procedure would roll back (a refusal) is rolled back to its savepoint alone. The answer is one
 * row, `result`: the calls' codes, comma-separated, in order. Any SQL error rolls the whole group
 * back and is raised again (the caller then sends each call alone). DROP, then CREATE.
 */
export const MYSQL_LEDGER_GROUP_ROUTINE: readonly string[] = [
  'DROP PROCEDURE IF EXISTS switchyard_ledger_group',
  `CREATE PROCEDURE switchyard_ledger_group(IN p_calls longtext CHARACTER SET utf8mb4)
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
    ${MYSQL_READ_COMMITTED}
    START TRANSACTION;
    WHILE i < v_count DO
      SET v_call = JSON_EXTRACT(p_calls, CONCAT('$[', i, ']'));
      SET v_kind = ${text(0)};
      SET v_result = 0;
      SAVEPOINT switchyard_call;
      IF v_kind = 'reserve' THEN
        SET p_id = ${text(1)}, p_request_id = ${text(2)}, p_user = ${integer(3)}, p_token = ${integer(4)},
          p_limited = ${integer(5)}, p_amount = ${integer(6)}, p_created_at = ${integer(7)}, p_instance = ${text(8)};
${RESERVE_BODY}
        IF v_result <> 0 THEN ROLLBACK TO SAVEPOINT switchyard_call; END IF;
      ELSEIF v_kind = 'settle' THEN
        SET p_id = ${text(1)}, p_user = ${integer(2)}, p_token = ${integer(3)}, p_limited = ${integer(4)},
          p_reserved = ${integer(5)}, p_target = ${integer(6)}, p_channel = ${integer(7)}, p_entry = ${text(8)};
        SET v_more = p_target - p_reserved;
${SETTLE_BODY}
        IF v_result <> 0 THEN ROLLBACK TO SAVEPOINT switchyard_call; END IF;
      ELSEIF v_kind = 'refund' THEN
        SET p_id = ${text(1)}, p_user = ${integer(2)}, p_token = ${integer(3)}, p_limited = ${integer(4)},
          p_amount = ${integer(5)};
${REFUND_BODY}
        IF v_result <> 1 THEN ROLLBACK TO SAVEPOINT switchyard_call; END IF;
      ELSE
        SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'switchyard_ledger_group: unknown call';
      END IF;
      SET v_codes = IF(i = 0, CAST(v_result AS CHAR), CONCAT(v_codes, ',', v_result));
      SET i = i + 1;
    END WHILE;
    COMMIT;
    SELECT v_codes AS result;
  END`,
];

/** The element `index`, field `field` of a JSON array of arrays, as an integer. */
const at = (list: string, field: number) =>
  `CAST(JSON_EXTRACT(${list}, CONCAT('$[', i, '][${field}]')) AS SIGNED)`;

/**
 * `switchyard_batch_counters(users, tokens, channels)`: the settlement writer's batch ends with
 * this one CALL that adds its counters and commits (`mysql-settlement-batch.ts`), so the user,
 * token and channel rows are locked only inside the server, as PostgreSQL's batch does with one
 * message. Otherwise each counter UPDATE and the COMMIT would be a round trip of their own
 * through a busy event loop, and every reservation of the batch's users would wait behind the
 * row lock the first UPDATE took. Arguments are JSON arrays of [id, quota, requests] (users),
 * [id, quota, accessed_at] (tokens) and [id, quota] (channels), ids ascending; rows are updated
 * one by one in that order, so every node locks them in the same order. The procedure commits
 * the caller's transaction (the ledger deletes and log rows sent before the CALL); any error
 * rolls all of it back and is raised again. DROP, then CREATE.
 */
export const MYSQL_BATCH_COUNTERS_ROUTINE: readonly string[] = [
  'DROP PROCEDURE IF EXISTS switchyard_batch_counters',
  `CREATE PROCEDURE switchyard_batch_counters(IN p_users longtext, IN p_tokens longtext, IN p_channels longtext)
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
  END`,
];
