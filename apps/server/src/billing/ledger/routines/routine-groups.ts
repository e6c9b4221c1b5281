import type { Kysely } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { RoutineInvocation } from './compiled-statements.ts';
import { isLockConflict, readResult, resultCode } from './routine-result.ts';
import type { ServerDialect } from './server-ledger.ts';

/** Sends of one call alone when the database rolled it back on a lock conflict. */
const ATTEMPTS_ALONE = 3;

interface RoutineCall extends RoutineInvocation {
  resolve: (code: number) => void;
  reject: (error: unknown) => void;
}

/**
 * Group calls of the ledger routines: the calls for one user submitted during one turn of the
 * event loop go to the server as one statement on the next turn — on PostgreSQL
 * `SELECT switchyard_reserve(…) AS r0, switchyard_settle(…) AS r1, …`, on MySQL/MariaDB
 * `CALL switchyard_ledger_group('[["reserve", …], ["settle", …]]')` (../mysql/mysql-routines.ts), the
 * dialect's statements — which runs
 * them in order in one transaction, and each caller gets its own result. Every socket write to the
 * database wakes a server process or thread, and that wake-up was most of the gateway's CPU per
 * call; under load one user's calls now share it (and, on MySQL, one commit's log flush). Only one user's calls share a statement, so a statement locks that user's row
 * first, then the user's tokens, as one call does: groups add no lock order that could deadlock.
 * A refusal (a short balance) is a result, not an error; a statement that fails (deadlock, lost
 * connection) changed nothing, and each of its calls is then sent again alone, so only a call
 * that fails by itself fails.
 */
export class RoutineGroups {
  private readonly waiting = new Map<number, RoutineCall[]>();
  private scheduled = false;
  private readonly flushBound = () => this.flush();

  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: Pick<ServerDialect, 'groupLimit' | 'callQuery' | 'groupQuery' | 'readGroup'>,
  ) {}

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
    const most = this.dialect.groupLimit;
    for (const group of groups) {
      if (group.length <= most) void this.send(group);
      else
        for (let from = 0; from < group.length; from += most) void this.send(group.slice(from, from + most));
    }
  }

  private async send(group: RoutineCall[]): Promise<void> {
    if (group.length === 1) {
      await this.alone(group[0]!);
      return;
    }
    let codes: unknown[];
    try {
      const { rows } = await this.db.executeQuery(this.dialect.groupQuery(group));
      codes = this.dialect.readGroup(rows, group.length);
    } catch {
      // Nothing of the statement was committed: each call again, alone, in the order submitted.
      for (const call of group) await this.alone(call);
      return;
    }
    group.forEach((call, index) => {
      try {
        call.resolve(resultCode(codes[index]));
      } catch (error) {
        call.reject(error);
      }
    });
  }

  /**
   * One call in a statement of its own. A call the database rolled back on a lock conflict (a
   * deadlock with another node's or the settlement writer's transaction) changed nothing and is
   * sent again, up to ATTEMPTS_ALONE times: a settlement lost that way would leave its reservation
   * held until reconciliation.
   */
  private async alone(call: RoutineCall): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        const { rows } = await this.db.executeQuery(this.dialect.callQuery(call));
        call.resolve(readResult(rows));
        return;
      } catch (error) {
        if (attempt >= ATTEMPTS_ALONE || !isLockConflict(error)) {
          call.reject(error);
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, attempt * 5));
      }
    }
  }
}
