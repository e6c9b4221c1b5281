import { CompiledQuery } from 'kysely';
import { kept, placeholders, type RoutineInvocation } from '../routines/compiled-statements.ts';

/** MySQL/MariaDB's ledger statements as ready SQL text (see routines/compiled-statements.ts). */

/**
 * MySQL: locks those of `ids` that are settled ledger rows and returns their ids. By primary key
 * only: the ledger table is small (rows live for one call), and for a long id list the optimizer
 * chose to scan it, locking the rows other calls were settling while the batch went on to wait
 * for their user's row (a deadlock).
 */
export function lockSettledQuery(ids: readonly string[]): CompiledQuery {
  const text = kept(`lock:mysql:${ids.length}`, ids.length, () => {
    return `SELECT id FROM reservations FORCE INDEX (PRIMARY) WHERE state = 'settled' AND id IN (${placeholders('mysql', 1, ids.length)}) FOR UPDATE`;
  });
  return CompiledQuery.raw(text, [...ids]);
}

/** MySQL: deletes the ledger rows `ids` (locked by `lockSettledQuery` in this transaction). */
export function deleteReservationsQuery(ids: readonly string[]): CompiledQuery {
  const text = kept(`delete:mysql:${ids.length}`, ids.length, () => {
    return `DELETE FROM reservations WHERE id IN (${placeholders('mysql', 1, ids.length)})`;
  });
  return CompiledQuery.raw(text, [...ids]);
}

/** MySQL: `CALL name(?, …)`, one procedure per statement. */
export function callProcedureQuery(call: RoutineInvocation): CompiledQuery {
  const text = kept(`call:${call.name}:${call.args.length}`, call.args.length, () => {
    return `CALL ${call.name}(${placeholders('mysql', 1, call.args.length)})`;
  });
  return CompiledQuery.raw(text, call.args as unknown[]);
}

/** The routine's name without its prefix: `switchyard_settle` → `settle`. */
const callKind = (name: string) => (name.startsWith('switchyard_') ? name.slice('switchyard_'.length) : name);

/**
 * MySQL: one user's calls of one turn as one `CALL switchyard_ledger_group(?)` (mysql-routines.ts),
 * the calls a JSON array of `[kind, …args]` in order.
 */
export function ledgerGroupQuery(calls: readonly RoutineInvocation[]): CompiledQuery {
  const list = calls.map((call) => [callKind(call.name), ...call.args]);
  return CompiledQuery.raw('CALL switchyard_ledger_group(?)', [JSON.stringify(list)]);
}
