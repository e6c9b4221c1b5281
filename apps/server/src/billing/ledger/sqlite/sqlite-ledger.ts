import type SQLite from 'better-sqlite3';
import { logValues } from '../../settlement/log-values.ts';
import type { PendingSettlement } from '../../settlement/settlement-entry.ts';
import type { Payer } from '../balance-moves.ts';
import { type SettleAttempt, stampLog } from '../settle-attempt.ts';
import { groupCommitOf, type SqliteGroupCommit } from './sqlite-group-commit.ts';
import { SqliteLogJournal } from './sqlite-log-journal.ts';

const prepareAll = (db: SQLite.Database) => ({
  holdUser: db.prepare('UPDATE users SET quota = quota - ? WHERE id = ? AND quota >= ?'),
  holdToken: db.prepare(
    'UPDATE tokens SET remain_quota = remain_quota - ? WHERE id = ? AND remain_quota >= ?',
  ),
  insertReserved: db.prepare(
    'INSERT INTO reservations (id, request_id, user_id, token_id, token_limited, amount, created_at, instance_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
  ),
  unreserve: db.prepare("DELETE FROM reservations WHERE id = ? AND state = 'reserved'"),
  creditUser: db.prepare('UPDATE users SET quota = quota + ? WHERE id = ?'),
  creditToken: db.prepare('UPDATE tokens SET remain_quota = remain_quota + ? WHERE id = ?'),
  channelUsed: db.prepare('UPDATE channels SET used_quota = used_quota + ? WHERE id = ?'),
  settleUser: db.prepare(
    'UPDATE users SET quota = quota + ?, used_quota = used_quota + ?, request_count = request_count + 1 WHERE id = ?',
  ),
  settleToken: db.prepare(
    'UPDATE tokens SET remain_quota = remain_quota + ?, used_quota = used_quota + ?, accessed_time = ? WHERE id = ?',
  ),
});

type Statements = ReturnType<typeof prepareAll>;

export interface SqliteReserve {
  id: string;
  requestId: string;
  payer: Payer;
  amount: number;
  instanceId: string;
}

const limited = (payer: Payer) => payer.tokenId > 0 && !payer.tokenUnlimited;

/**
 * The ledger on SQLite: its statements prepared once and run synchronously (no query builder)
 * through the connection's group commit (sqlite-group-commit.ts): the reserve, settle and refund
 * work of one event-loop turn shares one IMMEDIATE transaction (a piece that throws rolls it back,
 * and the pieces run again one by one), and each promise settles after the commit. A settlement
 * is written whole in its commit (ADR-24, ADR-42): the reserved row deleted, the balance moved,
 * the counters added and the consume log row appended to the log journal (sqlite-log-journal.ts),
 * which the settlement writer moves into logs. Nothing of a settlement is left for a batch.
 */
export class SqliteLedger {
  private statements: Statements | undefined;
  private readonly commit: SqliteGroupCommit;
  /** Where settlements append their consume log rows (moved into logs in batches). */
  private readonly journal: SqliteLogJournal;

  constructor(private readonly db: SQLite.Database) {
    this.commit = groupCommitOf(db);
    this.journal = new SqliteLogJournal(db);
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
      if (s.holdUser.run(r.amount, r.payer.userId, r.amount).changes === 0) return 'user';
      const tokenLimited = limited(r.payer);
      if (tokenLimited && s.holdToken.run(r.amount, r.payer.tokenId, r.amount).changes === 0) {
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

  /** Deletes a 'reserved' row and credits it back (nothing when the row was reconciled). */
  refund(id: string, payer: Payer, amount: number): Promise<void> {
    return this.commit.submit(() => {
      const s = this.prepared();
      if (s.unreserve.run(id).changes === 0) return;
      this.credit(s, payer, amount);
    });
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
    // The whole cost, even below zero (never written off).
    const charged = target;
    const back = held - charged;
    const tokenBack = limited(payer) ? back : 0;
    s.settleUser.run(back, charged, payer.userId);
    if (payer.tokenId > 0) s.settleToken.run(tokenBack, charged, at, payer.tokenId);
    if (r.channelId > 0 && charged > 0) s.channelUsed.run(charged, r.channelId);
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
}
