import type SQLite from 'better-sqlite3';
import { type Kysely, sql } from 'kysely';
import type { DatabaseHandle } from '../../../db/database.ts';
import type { NewLog } from '../../../db/repositories/log-repository.ts';
import type { Database } from '../../../db/schema.ts';
import { LOG_COLUMNS, runLogRow } from '../../settlement/log-values.ts';
import { insertMissingConsumeLogs } from '../consume-logs.ts';
import { groupCommitOf } from './sqlite-group-commit.ts';

/** Rows moved per transaction: one move holds the connection for a few milliseconds at most. */
export const JOURNAL_MOVE_ROWS = 1_000;

type JournalRow = Record<(typeof LOG_COLUMNS)[number], unknown> & { rowid: number };

const COLUMN_LIST = LOG_COLUMNS.map((column) => `"${column}"`).join(', ');

const prepareAll = (db: SQLite.Database) => ({
  insert: db.prepare(
    `INSERT INTO log_journal (${COLUMN_LIST}) VALUES (${LOG_COLUMNS.map(() => '?').join(', ')})`,
  ),
  first: db.prepare('SELECT min(rowid) FROM log_journal').pluck(),
  last: db.prepare('SELECT max(rowid) FROM log_journal').pluck(),
  remove: db.prepare('DELETE FROM log_journal WHERE rowid <= ?'),
  count: db.prepare('SELECT count(*) FROM log_journal').pluck(),
});

/** Prepared only when logs share this database (with LOG_SQL_DSN it has no logs table). */
const prepareCopy = (db: SQLite.Database) =>
  db.prepare(
    `INSERT INTO logs (${COLUMN_LIST}) SELECT ${COLUMN_LIST} FROM log_journal WHERE rowid <= ? ORDER BY rowid`,
  );

/**
 * The consume log rows that SQLite settlements in place write themselves (ADR-24) go first
 * to `log_journal`, a table with no index, in the settlement's own commit: the balance move and
 * its row stay atomic (a crash keeps both or neither), and the commit appends to one b-tree
 * instead of writing the logs table's page and the pages of its seven indexes for the few dozen
 * rows it carries. The settlement writer moves the journal into `logs` on its timer and whenever
 * it is flushed (`move`), up to JOURNAL_MOVE_ROWS rows per transaction in the journal's order, so
 * each index page is written once for hundreds of rows (ADR-35). Until then the console's log
 * lists lag by up to one settlement-writer interval, as settlements on the batch path always did;
 * rows a crashed process left in the journal are moved by the next process's first flush.
 */
export class SqliteLogJournal {
  private statements: ReturnType<typeof prepareAll> | undefined;
  private copy: SQLite.Statement | undefined;

  constructor(private readonly db: SQLite.Database) {}

  private prepared() {
    this.statements ??= prepareAll(this.db);
    return this.statements;
  }

  /** Appends one row (values in LOG_COLUMNS order); runs inside the caller's transaction. */
  append(values: unknown[]): void {
    runLogRow(this.prepared().insert, values);
  }

  /**
   * Moves the rows the journal holds now into `logs`, oldest first, JOURNAL_MOVE_ROWS per group
   * commit (rows appended meanwhile wait for the next move); answers how many.
   */
  async move(): Promise<number> {
    const s = this.prepared();
    // Read outside a transaction: an empty journal (most timer ticks) costs no commit.
    const end = s.last.get() as number | null;
    if (end === null) return 0;
    const commit = groupCommitOf(this.db);
    let moved = 0;
    for (;;) {
      const chunk = await commit.submit(() => this.moveChunk(end));
      moved += chunk.moved;
      if (chunk.done) return moved;
    }
  }

  /** Copies the oldest rows, up to JOURNAL_MOVE_ROWS rowids and none past `end`, and deletes them. */
  private moveChunk(end: number): { moved: number; done: boolean } {
    const s = this.prepared();
    const first = s.first.get() as number | null;
    if (first === null || first > end) return { moved: 0, done: true };
    const last = Math.min(end, first + JOURNAL_MOVE_ROWS - 1);
    this.copy ??= prepareCopy(this.db);
    this.copy.run(last);
    return { moved: s.remove.run(last).changes, done: last === end };
  }

  /**
   * Moves the journal into a separate log database (LOG_SQL_DSN), JOURNAL_MOVE_ROWS per main
   * transaction: the transaction (IMMEDIATE, so no other process moves the same rows) reads the
   * oldest rows, inserts them into the log database and deletes them. A crash or failure between
   * that insert and the commit leaves rows the log database already holds; with `uncertain` (the
   * first move of a process, and the move after a failed one) a row whose request already has its
   * consume log there is not inserted again, as reconciliation does for a settled ledger row.
   */
  async moveInto(main: Kysely<Database>, logs: DatabaseHandle, uncertain: boolean): Promise<number> {
    const s = this.prepared();
    const end = s.last.get() as number | null;
    if (end === null) return 0;
    let moved = 0;
    for (;;) {
      const count = await main.transaction().execute(async (trx) => {
        const { rows } =
          await sql<JournalRow>`SELECT rowid, * FROM log_journal WHERE rowid <= ${end} ORDER BY rowid LIMIT ${JOURNAL_MOVE_ROWS}`.execute(
            trx,
          );
        if (rows.length === 0) return 0;
        const moving = rows.map(({ rowid: _, ...row }) => ({
          log: row as unknown as NewLog,
          at: Number(row.created_at),
        }));
        await insertMissingConsumeLogs(logs, moving, uncertain);
        await sql`DELETE FROM log_journal WHERE rowid <= ${rows[rows.length - 1]!.rowid}`.execute(trx);
        return rows.length;
      });
      moved += count;
      if (count < JOURNAL_MOVE_ROWS) return moved;
    }
  }

  /** Rows waiting in the journal. */
  count(): number {
    return Number(this.prepared().count.get());
  }
}
