import type SQLite from 'better-sqlite3';

/**
 * Something that leaves writes pending while a transaction's pieces run (added up across pieces)
 * and writes them before the commit.
 */
export interface GroupParticipant {
  /** Runs inside the transaction after its pieces: writes what they left pending. */
  beforeCommit(): void;
  /** The transaction rolled back: forgets what its pieces left pending. */
  rolledBack(): void;
}

interface Work {
  run: () => unknown;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit for the ledger's SQLite statements: work submitted during one turn of the event
 * loop and the next (up to the check phase after one more poll phase: two setImmediate hops,
 * ADR-37) runs in one IMMEDIATE transaction, and every submitter's promise settles once that
 * transaction has committed. A commit writes each touched page to the WAL once however many calls
 * touched it (the user's row page, the ledger's pages): under load, several reservations and
 * settlements share one commit instead of paying one each.
 * Pieces must leave no partial writes when they answer normally (a refusal is an answer, not an
 * exception). A piece that throws rolls the whole group back; each piece then runs again in its
 * own transaction, so only the failing one fails. A group that cannot begin or commit rejects its
 * pieces with that error, having written none of them. While a Kysely transaction holds the
 * connection the group waits: its writes must never join that transaction.
 * Nothing is acknowledged before it is committed: a reservation is durable before its upstream
 * call starts, exactly as with one transaction per call.
 */
export class SqliteGroupCommit {
  private queue: Work[] = [];
  private scheduled = false;
  /** Pieces in the transaction being run (0 outside one): a piece can tell how many share it. */
  private running = 0;
  private readonly flushBound = () => this.flush();
  /**
   * The group's first check phase: the flush moves to the next one, so that the I/O callbacks of
   * one more poll phase join the group (ADR-37: at saturation ~5% less CPU per call, fewer commits
   * of the same pages). The pending immediate keeps that poll from blocking: an idle loop gets to
   * the flush at once.
   */
  private readonly gatherBound = () => setImmediate(this.flushBound);
  /** One transaction around every piece of the group. */
  private readonly runGroup: SQLite.Transaction<(group: Work[], values: unknown[]) => void>;
  /** One transaction around one piece (after a piece of the group threw). */
  private readonly runAlone: SQLite.Transaction<(run: () => unknown) => unknown>;
  private readonly participants: GroupParticipant[] = [];

  constructor(private readonly db: SQLite.Database) {
    this.runGroup = db.transaction((group: Work[], values: unknown[]) => {
      for (let index = 0; index < group.length; index++) values[index] = group[index]!.run();
      this.beforeCommit();
    });
    this.runAlone = db.transaction((run: () => unknown) => {
      const value = run();
      this.beforeCommit();
      return value;
    });
  }

  /** Has `participant` write what a transaction's pieces left pending before each commit. */
  join(participant: GroupParticipant): void {
    this.participants.push(participant);
  }

  private beforeCommit(): void {
    for (const participant of this.participants) participant.beforeCommit();
  }

  private rolledBack(): void {
    for (const participant of this.participants) participant.rolledBack();
  }

  /** Runs `work` (synchronous statements) in the next group's transaction. */
  submit<T>(work: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ run: work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.gatherBound);
      }
    });
  }

  /** Work waiting for the next commit. */
  get pending(): number {
    return this.queue.length;
  }

  /** How many pieces share the transaction the calling piece runs in (0 outside a piece). */
  get groupSize(): number {
    return this.running;
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
    const values: unknown[] = new Array(group.length);
    try {
      this.running = group.length;
      this.runGroup.immediate(group, values);
    } catch (error) {
      this.rolledBack();
      if (group.length === 1) group[0]!.reject(error);
      else this.oneByOne(group);
      return;
    } finally {
      this.running = 0;
    }
    for (let index = 0; index < group.length; index++) group[index]!.resolve(values[index]);
  }

  /** Nothing of the group was written: each piece again, alone, so only a failing one fails. */
  private oneByOne(group: Work[]): void {
    for (const work of group) {
      let value: unknown;
      try {
        this.running = 1;
        value = this.runAlone.immediate(work.run);
      } catch (error) {
        this.rolledBack();
        work.reject(error);
        continue;
      } finally {
        this.running = 0;
      }
      work.resolve(value);
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
