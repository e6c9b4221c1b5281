import type SQLite from 'better-sqlite3';

interface Outcome {
  ok: boolean;
  value: unknown;
}

interface Work {
  run: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for the ledger's SQLite statements: work submitted during one turn of the event
 * loop runs in one IMMEDIATE transaction on the next turn (setImmediate), each piece inside its
 * own savepoint, and every submitter's promise settles once that transaction has committed.
 * A commit writes each touched page to the WAL once however many calls touched it (the user's
 * row page, the ledger's pages): under load, several reservations and settlements share one
 * commit instead of paying one each. A piece that throws rolls back to its savepoint and rejects
 * alone; a failed commit rejects them all (nothing of theirs was written). While a Kysely
 * transaction holds the connection the group waits (its writes must not join that transaction).
 * Nothing is acknowledged before it is committed: a reservation is durable before its upstream
 * call starts, exactly as with one transaction per call.
 */
export class SqliteGroupCommit {
  private queue: Work[] = [];
  private scheduled = false;
  private readonly flushBound = () => this.flush();
  /** Inside the group's transaction: one savepoint. */
  private readonly inSavepoint: (run: () => unknown) => unknown;
  /** The group's transaction: runs every piece, keeping each outcome. */
  private readonly runGroup: SQLite.Transaction<(group: Work[], outcomes: Outcome[]) => void>;

  constructor(private readonly db: SQLite.Database) {
    this.inSavepoint = db.transaction((run: () => unknown) => run());
    this.runGroup = db.transaction((group: Work[], outcomes: Outcome[]) => {
      for (let index = 0; index < group.length; index++) {
        try {
          outcomes[index] = { ok: true, value: this.inSavepoint(group[index]!.run) };
        } catch (error) {
          outcomes[index] = { ok: false, value: error };
        }
      }
    });
  }

  /** Runs `work` (synchronous statements) in the next group's transaction. */
  submit<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run: work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.flushBound);
      }
    });
  }

  /** Work waiting for the next commit. */
  get pending(): number {
    return this.queue.length;
  }

  private flush(): void {
    if (this.db.inTransaction) {
      setTimeout(this.flushBound, 1);
      return;
    }
    this.scheduled = false;
    const group = this.queue;
    this.queue = [];
    if (group.length === 0) return;
    const outcomes: Outcome[] = new Array(group.length);
    try {
      this.runGroup.immediate(group, outcomes);
    } catch (error) {
      for (const work of group) work.reject(error);
      return;
    }
    for (let index = 0; index < group.length; index++) {
      const outcome = outcomes[index]!;
      if (outcome.ok) group[index]!.resolve(outcome.value);
      else group[index]!.reject(outcome.value);
    }
  }
}

const committers = new WeakMap<SQLite.Database, SqliteGroupCommit>();

/** The connection's one group committer (billing and the settlement writer share it). */
export function groupCommitOf(db: SQLite.Database): SqliteGroupCommit {
  let committer = committers.get(db);
  if (!committer) {
    committer = new SqliteGroupCommit(db);
    committers.set(db, committer);
  }
  return committer;
}
