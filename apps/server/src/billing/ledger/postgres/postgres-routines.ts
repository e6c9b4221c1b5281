/**
 * The PostgreSQL ledger functions' SQL text: reserve, settle and refund as one server-side
 * function each, called from `../routines/server-ledger.ts` (in groups, `../routines/routine-groups.ts`).
 * A relay call's row locks then live only inside the database for the length of one call instead
 * of across several client round trips through a busy event loop (one user's calls were
 * serialised at ~150 req/s; see docs/benchmarks-postgres-redis.md). The statements and their lock
 * order are those of the transactions they replace (ledger row, then user, then token). A
 * function that cannot finish the common case (settle of a row already reconciled, or a cost
 * beyond the reservation that the balance cannot cover) changes nothing and says so: the caller
 * then runs the general transaction.
 * Codes: reserve 0 = held, 1 = user short, 2 = token short; settle 0 = settled, 1 = row not
 * reserved any more, 2 = balance short; refund 1 = refunded, 0 = nothing to refund.
 *
 * Durability: each function commits with `synchronous_commit = off` (for its own transaction
 * only), the class SQLite runs in (WAL, synchronous=NORMAL): a crash of Switchyard loses nothing,
 * a crash of the database server's machine may lose its last few hundred milliseconds of
 * reservations and settlements, never half of one. Otherwise each call waited for two WAL
 * flushes while holding the user's row lock (ADR-21).
 *
 * Installed by migration 005 (`db/migrations/005-ledger-routines.ts`), which imports this text:
 * this file is pure SQL text and imports nothing, so `db` may import it. Changing a function
 * needs a new migration that runs the changed statement: databases already migrated never run
 * 005 again. On a fresh database 005 then installs the new text too, which is harmless because
 * the new migration installs the same text again right after.
 */

/** A PL/pgSQL function answering an integer code; its transaction skips the WAL-flush wait. */
const postgresFunction = (name: string, params: string, body: string, declare = '') =>
  `CREATE OR REPLACE FUNCTION ${name}(${params})
  RETURNS integer LANGUAGE plpgsql AS $$
  ${declare ? `DECLARE\n    ${declare}\n  ` : ''}BEGIN
    PERFORM set_config('synchronous_commit', 'off', true);
${body}
  END $$`;

/** `switchyard_reserve`, `switchyard_refund` and `switchyard_settle`, in that order. */
export const POSTGRES_LEDGER_ROUTINES: readonly string[] = [
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
