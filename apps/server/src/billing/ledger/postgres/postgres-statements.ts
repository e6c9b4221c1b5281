import { CompiledQuery } from 'kysely';
import { kept, placeholders, type RoutineInvocation } from '../routines/compiled-statements.ts';

/** PostgreSQL's ledger statements as ready SQL text (see routines/compiled-statements.ts). */

/** PostgreSQL: deletes those of `ids` that are settled ledger rows and returns their ids. */
export function deleteSettledReturningQuery(ids: readonly string[]): CompiledQuery {
  const text = kept(`claim:postgres:${ids.length}`, ids.length, () => {
    return `DELETE FROM reservations WHERE state = 'settled' AND id IN (${placeholders('postgres', 1, ids.length)}) RETURNING id`;
  });
  return CompiledQuery.raw(text, [...ids]);
}

/**
 * PostgreSQL: `SELECT f(…) AS result` for one call, `SELECT f(…) AS r0, g(…) AS r1, …` for
 * several (they run in order, in one transaction). Only the one-call texts are kept: a group's
 * mix of routines varies without bound, and its text is a few concatenations.
 */
export function selectFunctionsQuery(calls: readonly RoutineInvocation[]): CompiledQuery {
  if (calls.length === 1) {
    const [call] = calls as [RoutineInvocation];
    const text = kept(`select:${call.name}:${call.args.length}`, call.args.length, () => {
      return `SELECT ${call.name}(${placeholders('postgres', 1, call.args.length)}) AS result`;
    });
    return CompiledQuery.raw(text, call.args as unknown[]);
  }
  const parameters: unknown[] = [];
  for (const call of calls) for (const arg of call.args) parameters.push(arg);
  let from = 1;
  const columns = calls.map((call, index) => {
    const column = `${call.name}(${placeholders('postgres', from, call.args.length)}) AS r${index}`;
    from += call.args.length;
    return column;
  });
  return CompiledQuery.raw(`SELECT ${columns.join(', ')}`, parameters);
}
