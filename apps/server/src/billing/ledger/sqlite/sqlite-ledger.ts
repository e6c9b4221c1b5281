import { randomUUID } from 'node:crypto';
import type SQLite from 'better-sqlite3';
import { LOG_COLUMNS, logValues, runLogRow } from '../../settlement/log-values.ts';
import {
  aggregateCounters,
  encodeEntry,
  type PendingSettlement,
  pendingFromRow,
} from '../../settlement/settlement-entry.ts';
import type { Payer } from '../balance-moves.ts';
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
  insertSettled: db.prepare(
    "INSERT INTO reservations (id, request_id, user_id, token_id, token_limited, amount, created_at, instance_id, state, charged, channel_id, entry) VALUES (?, ?, ?, ?, ?, 0, ?, ?, 'settled', ?, ?, ?)",
  ),
  claim: db.prepare(
    "UPDATE reservations SET state = 'settled', charged = ?, channel_id = ?, entry = ? WHERE id = ? AND state = 'reserved'",
  ),
  unreserve: db.prepare("DELETE FROM reservations WHERE id = ? AND state = 'reserved'"),
  creditUser: db.prepare('UPDATE users SET quota = quota + ? WHERE id = ?'),
  creditToken: db.prepare('UPDATE tokens SET remain_quota = remain_quota + ? WHERE id = ?'),
  deleteSettled: db.prepare("DELETE FROM reservations WHERE id = ? AND state = 'settled'"),
  settledRow: db.prepare(
    "SELECT id, user_id, token_id, channel_id, charged, entry, created_at FROM reservations WHERE id = ? AND state = 'settled'",
  ),
  userCounters: db.prepare(
    'UPDATE users SET used_quota = used_quota + ?, request_count = request_count + ? WHERE id = ?',
  ),
  tokenCounters: db.prepare('UPDATE tokens SET used_quota = used_quota + ?, accessed_time = ? WHERE id = ?'),
  channelCounters: db.prepare('UPDATE channels SET used_quota = used_quota + ? WHERE id = ?'),
  settleUser: db.prepare(
    'UPDATE users SET quota = quota + ?, used_quota = used_quota + ?, request_count = request_count + 1 WHERE id = ?',
  ),
  settleToken: db.prepare(
    'UPDATE tokens SET remain_quota = remain_quota + ?, used_quota = used_quota + ?, accessed_time = ? WHERE id = ?',
  ),
});

type Statements = ReturnType<typeof prepareAll>;

/** Prepared only when logs share this database (with LOG_SQL_DSN it has no logs table). */
const prepareLogInsert = (db: SQLite.Database) =>
  db.prepare(
    `INSERT INTO logs (${LOG_COLUMNS.map((c) => `"${c}"`).join(', ')}) VALUES (${LOG_COLUMNS.map(() => '?').join(', ')})`,
  );

export interface SqliteReserve {
  id: string;
  requestId: string;
  payer: Payer;
  amount: number;
  instanceId: string;
}

const limited = (payer: Payer) => payer.tokenId > 0 && !payer.tokenUnlimited;

/**
 * The ledger's hot statements on SQLite, prepared once and run synchronously (no query builder)
 * through the connection's group commit (sqlite-group-commit.ts): the reserve, settle, refund and
 * batch work of one event-loop turn shares one IMMEDIATE transaction (a piece that throws rolls
 * it back, and the pieces run again one by one), the in-place settlements' balance moves and
 * counters are added up and written before the commit (sqlite-pending-moves.ts), and each promise
 * settles after the commit.
 */
export class SqliteLedger {
  private statements: Statements | undefined;
  private logInsert: SQLite.Statement | undefined;
  private readonly commit: SqliteGroupCommit;
  /** In-place settlements' balance moves and counters of the running transaction, added up. */
  private readonly pending: SqlitePendingMoves;
  /** Where in-place settlements append their consume log rows (moved into logs in batches). */
  private readonly journal: SqliteLogJournal;

  /**
   * @param inPlaceFrom settle writes the consume log row and counters itself when its commit
   * carries at least this many pieces (0: never; the settlement writer's batch does it).
   */
  constructor(
    private readonly db: SQLite.Database,
    private readonly inPlaceFrom = 0,
  ) {
    this.commit = groupCommitOf(db);
    this.pending = new SqlitePendingMoves(db);
    this.journal = new SqliteLogJournal(db);
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
  reserve(r: SqliteReserve): Promise<'user' | 'token' | null> {
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

  /** Deletes a 'reserved' row and credits it back (nothing when the row was reconciled). */
  refund(id: string, payer: Payer, amount: number): Promise<void> {
    return this.commit.submit(() => {
      const s = this.prepared();
      if (s.unreserve.run(id).changes === 0) return;
      this.credit(s, payer, amount);
    });
  }

  /**
   * Settles in the next group commit: in place (log row and counters written, `written` set) when
   * the commit carries `inPlaceFrom` pieces or more, else marked settled for the writer's batch.
   * With `onlyIfReserved` and no reserved row, nothing changes: the answer is the row's settled
   * work when an earlier attempt settled it after all, else null.
   */
  settle(r: SettleAttempt): Promise<PendingSettlement | null> {
    return this.commit.submit(() =>
      this.inPlaceFrom > 0 && this.commit.groupSize >= this.inPlaceFrom
        ? this.settleInPlace(r)
        : this.settleNow(r),
    );
  }

  /**
   * Settles and writes in the same commit (logs in this database): the reserved row is deleted,
   * the balance moved to the cost, the consume log row appended to the log journal (moved into
   * logs by the settlement writer, sqlite-log-journal.ts) and the counters added, so nothing is
   * left for a settlement batch and a crash leaves either the reserved row (refunded by
   * reconciliation) or all of it. A row reconciled meanwhile (nothing reserved) takes the whole
   * cost from the balance, even below zero. Settlements sharing the commit share the journal's and
   * the counters' pages; since the journal, a lone one costs no more than the batch path (ADR-35).
   */
  private settleInPlace(r: SettleAttempt): PendingSettlement | null {
    const s = this.prepared();
    const at = Math.floor(Date.now() / 1000);
    const { payer, target } = r;
    const unreserved = r.ledgerId !== '' && s.unreserve.run(r.ledgerId).changes > 0;
    if (!unreserved && r.onlyIfReserved) return settledEarlier(s, r.ledgerId);
    const held = unreserved ? r.reserved : 0;
    // The whole cost, even below zero (never written off): a cost beyond the reservation is taken
    // from the balance as it stands.
    const charged = target;
    const back = held - charged;
    const tokenBack = limited(payer) ? back : 0;
    if (back < 0) {
      // A cost beyond the reservation is taken at once: a later hold in this transaction must see it.
      s.settleUser.run(back, charged, payer.userId);
      if (payer.tokenId > 0) s.settleToken.run(tokenBack, charged, at, payer.tokenId);
    } else {
      // Quota given back and counters: added up with the transaction's other settlements, one
      // UPDATE per row before the commit (a hold that finds a balance short writes them first).
      this.pending.addUser(payer.userId, back, charged);
      if (payer.tokenId > 0) this.pending.addToken(payer.tokenId, tokenBack, charged, at);
    }
    if (r.channelId > 0 && charged > 0) this.pending.addChannel(r.channelId, charged);
    const log = stampLog(r.buildLog(charged, target - charged), at);
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

  private settleNow(r: SettleAttempt): PendingSettlement | null {
    const s = this.prepared();
    const at = Math.floor(Date.now() / 1000);
    const { payer, target } = r;
    const log = stampLog(r.buildLog(target, 0), at);
    const claimed =
      r.ledgerId !== '' && s.claim.run(target, r.channelId, encodeEntry(at, log), r.ledgerId).changes > 0;
    if (!claimed && r.onlyIfReserved) return settledEarlier(s, r.ledgerId);
    const held = claimed ? r.reserved : 0;
    const charged = target;
    if (target !== held) this.credit(s, payer, held - target);
    let id = r.ledgerId;
    if (!claimed) {
      // Reconciled meanwhile (or nothing reserved): the whole cost came from the balance; a new
      // settled row carries the log and counters.
      id = randomUUID();
      s.insertSettled.run(
        id,
        r.requestId.slice(0, 64),
        payer.userId,
        payer.tokenId,
        limited(payer) ? 1 : 0,
        Date.now(),
        r.instanceId,
        charged,
        r.channelId,
        encodeEntry(at, log),
      );
    }
    return { id, userId: payer.userId, tokenId: payer.tokenId, channelId: r.channelId, charged, at, log };
  }

  /** Deletes the batch's settled rows, writes their logs (when `withLogs`) and counters. */
  writeBatch(items: readonly PendingSettlement[], withLogs: boolean): Promise<number> {
    return this.commit.submit(() => {
      const s = this.prepared();
      const claimed = items.filter((item) => s.deleteSettled.run(item.id).changes > 0);
      if (withLogs) {
        this.logInsert ??= prepareLogInsert(this.db);
        for (const item of claimed) {
          if (item.log) runLogRow(this.logInsert, logValues(item.log, item.at));
        }
      }
      const counters = aggregateCounters(claimed);
      for (const user of counters.users) s.userCounters.run(user.quota, user.requests, user.id);
      for (const token of counters.tokens) s.tokenCounters.run(token.quota, token.accessedAt, token.id);
      for (const channel of counters.channels) s.channelCounters.run(channel.quota, channel.id);
      return claimed.length;
    });
  }
}

/**
 * A retry that found its row no longer reserved: the row settled by the attempt that seemed to
 * fail, handed to the settlement writer (its log row and counters), or null when it is gone.
 */
function settledEarlier(s: Statements, id: string): PendingSettlement | null {
  const row = s.settledRow.get(id) as Parameters<typeof pendingFromRow>[0] | undefined;
  return row ? pendingFromRow(row) : null;
}
