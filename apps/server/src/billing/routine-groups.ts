import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { type RoutineInvocation, selectFunctionsQuery } from './compiled-statements.ts';
import { readResult, resultCode } from './routine-result.ts';

interface RoutineCall extends RoutineInvocation {
  resolve: (code: number) => void;
  reject: (error: unknown) => void;
}

/**
 * Group calls of the PostgreSQL ledger functions: the calls for one user submitted during one turn
 * of the event loop go to the server as one statement on the next turn,
 * `SELECT switchyard_reserve(…) AS r0, switchyard_settle(…) AS r1, …`, which runs them in order
 * in one transaction, and each caller gets its own result. Every socket write to PostgreSQL wakes
 * a backend, and that wake-up was most of the gateway's CPU per call; under load one user's calls
 * now share it. Only one user's calls share a statement, so a statement locks that user's row
 * first, then the user's tokens, as one call does: groups add no lock order that could deadlock.
 * A refusal (a short balance) is a result, not an error; a statement that fails (deadlock, lost
 * connection) changed nothing, and each of its calls is then sent again alone, so only a call
 * that fails by itself fails.
 */
export class RoutineGroups {
  private readonly waiting = new Map<number, RoutineCall[]>();
  private scheduled = false;
  private readonly flushBound = () => this.flush();

  constructor(private readonly db: Kysely<Database>) {}

  /** Calls `name(args)` in the next statement of `userId`'s group; resolves to its result code. */
  call(userId: number, name: string, args: readonly unknown[]): Promise<number> {
    return new Promise<number>((resolve, reject) => {
      let group = this.waiting.get(userId);
      if (!group) {
        group = [];
        this.waiting.set(userId, group);
      }
      group.push({ name, args, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.flushBound);
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const groups = [...this.waiting.values()];
    this.waiting.clear();
    for (const group of groups) void this.send(group);
  }

  private async send(group: RoutineCall[]): Promise<void> {
    if (group.length === 1) {
      await this.alone(group[0]!);
      return;
    }
    let row: Record<string, unknown>;
    try {
      const { rows } = await this.db.executeQuery(selectFunctionsQuery(group));
      row = (rows[0] ?? {}) as Record<string, unknown>;
    } catch {
      // Nothing of the statement was committed: each call again, alone, in the order submitted.
      for (const call of group) await this.alone(call);
      return;
    }
    group.forEach((call, index) => {
      try {
        call.resolve(resultCode(row[`r${index}`]));
      } catch (error) {
        call.reject(error);
      }
    });
  }

  private async alone(call: RoutineCall): Promise<void> {
    try {
      const { rows } = await this.db.executeQuery(selectFunctionsQuery([call]));
      call.resolve(readResult(rows));
    } catch (error) {
      call.reject(error);
    }
  }
}
