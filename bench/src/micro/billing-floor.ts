/**
 * What the database work of one relay call costs without the query builder, on the same SQLite
 * file layout: (a) the statements BillingService ran before the ledger v2 (reservation + ledger
 * row in one transaction; ledger delete, refund of the excess and the three counter updates in
 * another), prepared once with better-sqlite3; (b) the minimal shape: one conditional write for
 * the reservation, one write at settlement, and the ledger and counter writes batched (here every
 * 200 calls in one transaction). Neither is Switchyard's code: they bound what a rewrite of the
 * billing statements could save.
 */
import SQLite from 'better-sqlite3';

export interface BillingFloorResult {
  preparedSameStatementsUs: number;
  oneWriteEachBatchedUs: number;
}

const cpuUs = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

/** `file` must hold the migrated schema with user 1, token 1 and channel 1 (see billing-bench.ts). */
export function runBillingFloor(file: string, calls: number): BillingFloorResult {
  const db = new SQLite(file);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  try {
    const hold = db.prepare('UPDATE users SET quota = quota - ? WHERE id = ? AND quota >= ?');
    const ledger = db.prepare(
      'INSERT INTO reservations (id, request_id, user_id, token_id, token_limited, amount, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    const unledger = db.prepare('DELETE FROM reservations WHERE id = ?');
    const credit = db.prepare('UPDATE users SET quota = quota + ? WHERE id = ?');
    const userUsed = db.prepare(
      'UPDATE users SET used_quota = used_quota + ?, request_count = request_count + ? WHERE id = ?',
    );
    const tokenUsed = db.prepare(
      'UPDATE tokens SET used_quota = used_quota + ?, accessed_time = ? WHERE id = ?',
    );
    const channelUsed = db.prepare('UPDATE channels SET used_quota = used_quota + ? WHERE id = ?');
    const reserveTx = db.transaction((id: string, amount: number) => {
      if (hold.run(amount, 1, amount).changes === 0) throw new Error('short');
      ledger.run(id, id, 1, 1, 0, amount, Date.now());
    });
    const settleTx = db.transaction((id: string, refund: number, charged: number) => {
      if (unledger.run(id).changes > 0) credit.run(refund, 1);
      userUsed.run(charged, 1, 1);
      tokenUsed.run(charged, Math.floor(Date.now() / 1000), 1);
      channelUsed.run(charged, 1);
    });
    const same = (count: number, offset: number) => {
      for (let i = 0; i < count; i++) {
        const id = `floor-${offset + i}`;
        reserveTx(id, 2_000);
        settleTx(id, 766, 1_234);
      }
    };
    const flushCounters = db.transaction((charged: number, requests: number) => {
      userUsed.run(charged, requests, 1);
      tokenUsed.run(charged, Math.floor(Date.now() / 1000), 1);
      channelUsed.run(charged, 1);
    });
    const batched = (count: number) => {
      let charged = 0;
      let requests = 0;
      for (let i = 0; i < count; i++) {
        if (hold.run(2_000, 1, 2_000).changes === 0) throw new Error('short');
        credit.run(766, 1);
        charged += 1_234;
        requests++;
        if (requests === 200) {
          flushCounters(charged, requests);
          charged = 0;
          requests = 0;
        }
      }
      if (requests > 0) flushCounters(charged, requests);
    };
    same(1_000, 0);
    let at = cpuUs();
    same(calls, 1_000);
    const preparedSameStatementsUs = (cpuUs() - at) / calls;
    batched(1_000);
    at = cpuUs();
    batched(calls);
    const oneWriteEachBatchedUs = (cpuUs() - at) / calls;
    return { preparedSameStatementsUs, oneWriteEachBatchedUs };
  } finally {
    db.close();
  }
}
