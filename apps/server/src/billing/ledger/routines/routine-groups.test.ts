import type { CompiledQuery, Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../../db/schema.ts';
import { postgresDialect } from '../postgres/postgres-ledger.ts';
import { RoutineGroups } from './routine-groups.ts';

/** A PostgreSQL stand-in that records each statement and answers 0 for every routine in it. */
function recordingDatabase(fails: (names: string[]) => boolean = () => false) {
  const statements: string[][] = [];
  const db = {
    executeQuery: async (query: CompiledQuery) => {
      const names = [...query.sql.matchAll(/(switchyard_\w+)\(/g)].map((match) => match[1]!);
      statements.push(names);
      if (fails(names)) throw Object.assign(new Error('connection lost'), { code: '08006' });
      return { rows: [{ result: 0, ...Object.fromEntries(names.map((_, index) => [`r${index}`, 0])) }] };
    },
  } as unknown as Kysely<Database>;
  return { db, statements };
}

describe('RoutineGroups', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends one user’s calls of one turn as one statement, another user’s as their own', async () => {
    const { db, statements } = recordingDatabase();
    const groups = new RoutineGroups(db, postgresDialect);
    const answers = Promise.all([
      groups.call(1, 'switchyard_reserve', []),
      groups.call(1, 'switchyard_settle', []),
      groups.call(2, 'switchyard_reserve', []),
    ]);
    await vi.advanceTimersByTimeAsync(0);
    expect(await answers).toEqual([0, 0, 0]);
    expect(statements).toEqual([['switchyard_reserve', 'switchyard_settle'], ['switchyard_reserve']]);
  });

  it('sends calls of a later turn in a statement of their own', async () => {
    const { db, statements } = recordingDatabase();
    const groups = new RoutineGroups(db, postgresDialect);
    const first = groups.call(1, 'switchyard_reserve', []);
    await vi.advanceTimersByTimeAsync(0);
    const second = groups.call(1, 'switchyard_settle', []);
    await vi.advanceTimersByTimeAsync(0);
    await Promise.all([first, second]);
    expect(statements).toEqual([['switchyard_reserve'], ['switchyard_settle']]);
  });

  it('sends each call of a failed statement again alone, so only a call that fails by itself fails', async () => {
    // Statements with two calls fail, and so does the refund alone.
    const { db, statements } = recordingDatabase(
      (names) => names.length > 1 || names[0] === 'switchyard_refund',
    );
    const groups = new RoutineGroups(db, postgresDialect);
    const reserved = groups.call(1, 'switchyard_reserve', []);
    const refunded = groups.call(1, 'switchyard_refund', []);
    const outcome = Promise.allSettled([reserved, refunded]);
    await vi.advanceTimersByTimeAsync(0);
    const [reserve, refund] = await outcome;
    expect(reserve).toEqual({ status: 'fulfilled', value: 0 });
    expect(refund).toMatchObject({ status: 'rejected', reason: { message: 'connection lost' } });
    // Not a lock conflict: the refund is not sent a third time.
    expect(statements).toEqual([
      ['switchyard_reserve', 'switchyard_refund'],
      ['switchyard_reserve'],
      ['switchyard_refund'],
    ]);
  });
});
