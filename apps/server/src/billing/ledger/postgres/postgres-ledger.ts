import { CompiledQuery, sql } from 'kysely';
import { aggregateCounters, type PendingSettlement } from '../../settlement/settlement-entry.ts';
import { kept, placeholders, type RoutineInvocation } from '../routines/compiled-statements.ts';
import type { ServerDialect } from '../routines/server-ledger.ts';

/**
 * The ledger on PostgreSQL (../routines/server-ledger.ts with this dialect): the functions for
 * reserve, settle and refund (their SQL text is postgres-routines.ts), one user's calls of a turn
 * in one `SELECT` (ADR-22), and settled rows written by the batch whose counters and COMMIT go as
 * one message. Statements are ready SQL text (see routines/compiled-statements.ts).
 */

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

function integer(value: number): string {
  if (!Number.isSafeInteger(value)) throw new Error(`counter value ${value} is not a safe integer`);
  return String(value);
}

/**
 * A batch's counter updates as one text of statements, each ending in `;`: used quota and
 * request count per user, used quota and last access per token, used quota per channel, ids in
 * ascending order (every node locks rows in the same order). Values are integers written into the
 * text (checked), so the text can go with the simple query protocol, several statements at once.
 */
export function counterStatements(items: readonly PendingSettlement[]): string {
  const counters = aggregateCounters(items);
  let text = '';
  for (const user of counters.users) {
    text += `UPDATE users SET used_quota = used_quota + ${integer(user.quota)}, request_count = request_count + ${integer(user.requests)} WHERE id = ${integer(user.id)};`;
  }
  for (const token of counters.tokens) {
    text += `UPDATE tokens SET used_quota = used_quota + ${integer(token.quota)}, accessed_time = ${integer(token.accessedAt)} WHERE id = ${integer(token.id)};`;
  }
  for (const channel of counters.channels) {
    text += `UPDATE channels SET used_quota = used_quota + ${integer(channel.quota)} WHERE id = ${integer(channel.id)};`;
  }
  return text;
}

/**
 * The settlement batch on PostgreSQL deletes the batch's settled ledger rows with one DELETE …
 * RETURNING, inserts their consume log rows, then sends every counter update and the COMMIT as one
 * message, committed without waiting for the WAL flush. The user, token and channel rows are
 * locked only from that message until its commit returns inside the server. A batch that held one
 * user's row across three round trips, each waiting for a turn of a busy event loop, and then
 * through a synchronous commit's WAL flush queued that user's reservations behind it (`Lock:
 * tuple`): p99 194–385 ms at 1,000 req/s. Durability is the ledger routines' (ADR-22): a crash of
 * the database machine may lose the last moments' transactions, each whole or not at all, and a
 * lost batch leaves its settled ledger rows in place to be written again.
 */
export const postgresDialect: ServerDialect = {
  kind: 'postgres',
  groupLimit: Number.POSITIVE_INFINITY,
  callQuery: (call) => selectFunctionsQuery([call]),
  groupQuery: selectFunctionsQuery,
  readGroup(rows, count) {
    const row = (rows[0] ?? {}) as Record<string, unknown>;
    return Array.from({ length: count }, (_, index) => row[`r${index}`]);
  },
  batchBegin: ['BEGIN; SET LOCAL synchronous_commit = off'],
  async claimSettled(trx, ids) {
    const { rows } = await trx.executeQuery<{ id: string }>(deleteSettledReturningQuery(ids));
    return new Set(rows.map((row) => row.id));
  },
  finishBatch: (connection, mine) => sql.raw(`${counterStatements(mine)}COMMIT`).execute(connection),
};
