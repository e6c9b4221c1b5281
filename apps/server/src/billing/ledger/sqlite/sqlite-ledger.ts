import type SQLite from 'better-sqlite3';
import type { DatabaseHandle } from '../../../db/database.ts';
import { logValues } from '../../settlement/log-values.ts';
import type { PendingSettlement } from '../../settlement/settlement-entry.ts';
import { type Payer, refundClaimedIn } from '../balance-moves.ts';
import type { Ledger, RefundClaim, ReserveRow } from '../ledger.ts';
import { type SettleAttempt, stampLog } from '../settle-attempt.ts';
import { groupCommitOf, type SqliteGroupCommit } from './sqlite-group-commit.ts';
import { SqliteLogJournal } from './sqlite-log-journal.ts';
import { SqlitePendingMoves } from './sqlite-pending-moves.ts';

const prepareAll = (db: SQLite.Database) => ({
  holdUser: db.prepare('UPDATE users SET quota = quota - ? WHERE id = ? AND quota >= ?'),
  holdToken: db.prepare(
    'UPDATE tokens SET remain_quota = remain_quota - ? WHERE id = ? AND remain_quota >= ?',
  ),
  insertReserved: db.prepare(
    'INSERT INTO reservations (id, request_id, user_id, token_id, token_limited, amount, created_at, instance_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ),
  unreserve: db.prepare("DELETE FROM reservations WHERE id = ? AND state = 'reserved'"),
  deleteSettled: db.prepare("DELETE FROM reservations WHERE id = ? AND state = 'settled'"),
  creditUser: db.prepare('UPDATE users SET quota = quota + ? WHERE id = ?'),
  creditToken: db.prepare('UPDATE tokens SET remain_quota = remain_quota + ? WHERE id = ?'),
});

type Statements = ReturnType<typeof prepareAll>;

const limited = (payer: Payer) => payer.tokenId > 0 && !payer.tokenUnlimited;

/**
 * The ledger on SQLite: its statements prepared once and run synchronously (no query builder)
 * through the connection's group commit (sqlite-group-commit.ts): the reserve, settle and refund
 * work of one event-loop turn shares one IMMEDIATE transaction (a piece that throws rolls it back,
 * and the pieces run again one by one), and each promise settles after the commit. A settlement
 * is written whole in its commit (ADR-24, ADR-45): the reserved row deleted, the balance moved, the
 * counters added (added up per row across the commit, sqlite-pending-moves.ts) and the consume log
 * row appended to the log journal (sqlite-log-journal.ts), which the settlement writer moves into
 * logs. Nothing of a settlement is left for the writer's batch.
 */
export class SqliteLedger implements Ledger {
  private statements: Statements | undefined;
  private readonly db: SQLite.Database;
  private readonly commit: SqliteGroupCommit;
  /** Settlements' balance moves and counters of the running transaction, added up. */
  private readonly pending: SqlitePendingMoves;
  /** Where settlements append their consume log rows (moved into logs in batches). */
  private readonly journal: SqliteLogJournal;
  /**
   * The next move into a separate log database checks for rows already there: the journal may
   * hold rows a stopped process or a failed move had inserted before its delete.
   */
  private uncertainMove = true;

  constructor(private readonly handle: DatabaseHandle) {
    if (!handle.sqlite) throw new Error('the SQLite ledger needs the raw connection');
    this.db = handle.sqlite;
    this.commit = groupCommitOf(this.db);
    this.pending = new SqlitePendingMoves(this.db);
    this.journal = new SqliteLogJournal(this.db);
    this.commit.join(this.pending);
  }

  private prepared(): Statements {
    this.statements ??= prepareAll(this.db);
    return this.statements;
  }

  private credit(s: Statements, payer: Payer, amount: number): void {
    s.creditUser.run(amount, payer.userId);
    if (limited(payer)) s.creditToken.run(amount, payer.tokenId);
  }

  /**
   * Holds the amount on user and token with its ledger row; answers who was short instead (then
   * nothing is left changed: a token refusal gives the user's hold back at once).
   */
  reserve(r: ReserveRow): Promise<'user' | 'token' | null> {
    return this.commit.submit(() => {
      const s = this.prepared();
      if (!this.hold(s.holdUser, r.payer.userId, r.amount)) return 'user';
      const tokenLimited = limited(r.payer);
      if (tokenLimited && !this.hold(s.holdToken, r.payer.tokenId, r.amount)) {
        s.creditUser.run(r.amount, r.payer.userId);
        return 'token';
      }
      s.insertReserved.run(
        r.id,
        r.requestId.slice(0, 64),
        r.payer.userId,
        r.payer.tokenId,
        tokenLimited ? 1 : 0,
        r.amount,
        Date.now(),
        r.instanceId,
      );
      return null;
    });
  }

  /**
   * Holds `amount` on a balance (`quota >= amount`); one found short is tried again after the
   * transaction's pending settlements are written (they may have given quota back).
   */
  private hold(statement: SQLite.Statement, id: number, amount: number): boolean {
    if (statement.run(amount, id, amount).changes > 0) return true;
    if (this.pending.isEmpty) return false;
    this.pending.write();
    return statement.run(amount, id, amount).changes > 0;
  }

  /** Deletes a 'reserved' row and credits it back (false when the row was reconciled). */
  refund(id: string, payer: Payer, amount: number): Promise<boolean> {
    return this.commit.submit(() => {
      const s = this.prepared();
      if (s.unreserve.run(id).changes === 0) return false;
      this.credit(s, payer, amount);
      return true;
    });
  }

  /** A Kysely transaction on the same connection (balance-moves.ts; the group commit waits while it is open). */
  refundClaimed(userId: number, tokenId: number, amount: number, claim: RefundClaim): Promise<boolean> {
    return refundClaimedIn(this.handle.db, userId, tokenId, amount, claim);
  }

  /**
   * Settles in the next group commit: the reserved row is deleted, the balance moved to the cost,
   * the consume log row appended to the log journal and the counters added, so a crash leaves
   * either the reserved row (refunded by reconciliation) or all of it. A row reconciled meanwhile
   * (nothing reserved) takes the whole cost from the balance, even below zero. With
   * `onlyIfReserved` (a retry) and no reserved row nothing changes and the answer is null: the
   * attempt that seemed to fail wrote everything, or reconciliation closed the row. Settlements
   * sharing the commit share the journal's and the counters' pages (ADR-35).
   */
  settle(r: SettleAttempt): Promise<PendingSettlement | null> {
    return this.commit.submit(() => this.settleInPlace(r));
  }

  private settleInPlace(r: SettleAttempt): PendingSettlement | null {
    const s = this.prepared();
    const at = Math.floor(Date.now() / 1000);
    const { payer, target } = r;
    const unreserved = r.ledgerId !== '' && s.unreserve.run(r.ledgerId).changes > 0;
    if (!unreserved && r.onlyIfReserved) return null;
    const held = unreserved ? r.reserved : 0;
    // The whole cost, even below zero (never written off): a cost beyond the reservation is taken
    // from the balance as it stands.
    const charged = target;
    const back = held - charged;
    // Quota given back and counters: added up with the transaction's other settlements, one
    // UPDATE per row before the commit (a hold that finds a balance short writes them first).
    this.pending.addUser(payer.userId, back, charged);
    if (payer.tokenId > 0) this.pending.addToken(payer.tokenId, limited(payer) ? back : 0, charged, at);
    if (r.channelId > 0 && charged > 0) this.pending.addChannel(r.channelId, charged);
    // A cost beyond the reservation is taken at once: a later hold in this transaction must see it.
    if (back < 0) this.pending.write();
    const log = stampLog(r.buildLog(charged), at);
    if (log) this.journal.append(logValues(log, at));
    return {
      id: r.ledgerId,
      userId: payer.userId,
      tokenId: payer.tokenId,
      channelId: r.channelId,
      charged,
      at,
      log,
      written: true,
    };
  }

  /**
   * Settled rows exist on SQLite only when a process of a build that left them for a batch died
   * before writing them; reconciliation writes them through here: deleted, their consume rows to
   * the log journal (when `withLogs`) and their counters, as a settlement writes its own.
   */
  writeSettled(batch: readonly PendingSettlement[], withLogs: boolean): Promise<number> {
    return this.commit.submit(() => {
      const s = this.prepared();
      let written = 0;
      for (const item of batch) {
        if (s.deleteSettled.run(item.id).changes === 0) continue;
        written++;
        this.pending.addUser(item.userId, 0, item.charged);
        if (item.tokenId > 0) this.pending.addToken(item.tokenId, 0, item.charged, item.at);
        if (item.channelId > 0 && item.charged > 0) this.pending.addChannel(item.channelId, item.charged);
        if (withLogs && item.log) this.journal.append(logValues(item.log, item.at));
      }
      return written;
    });
  }

  /**
   * Moves the log journal into `logs`: of this database, or of a separate log database
   * (LOG_SQL_DSN; sqlite-log-journal.ts `moveInto`). A move that fails leaves its rows for the
   * next flush, and raises.
   */
  async flush(logDatabase: DatabaseHandle): Promise<void> {
    if (logDatabase === this.handle) {
      await this.journal.move();
      return;
    }
    try {
      await this.journal.moveInto(this.handle.db, logDatabase, this.uncertainMove);
      this.uncertainMove = false;
    } catch (error) {
      this.uncertainMove = true;
      throw error;
    }
  }
}
