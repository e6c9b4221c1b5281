/**
 * Micro-benchmark of what one relay call asks of the database, without HTTP: the reservation
 * (BillingService.reserve), the settlement (BillingService.settle with the relay's settings: in
 * place, ADR-24 and ADR-35: the ledger row deleted, the balance and counters moved, the consume
 * log row appended to the log journal) and the settlement writer's share (every 50 calls it moves
 * the journal into logs), on SQLite in a temporary directory with the
 * real migrations. This is the part of
 * Switchyard's per-request CPU that no relay change can remove; the report sets it beside the
 * measured CPU per request. Calls one at a time pay a commit each; `groupedUs` is the same work
 * with eight calls in flight, as under load, sharing the group commit's transactions (ADR-21).
 * Then the old statements prepared without the query builder, and the minimal shape (see
 * billing-floor.ts).
 *
 *   node --conditions=source --import tsx bench/src/micro/billing-bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BillingService } from '../../../apps/server/src/billing/ledger/billing-service.ts';
import { SettlementWriter } from '../../../apps/server/src/billing/settlement/settlement-writer.ts';
import { type DatabaseHandle, openDatabase } from '../../../apps/server/src/db/database.ts';
import { migrateDatabases } from '../../../apps/server/src/db/migrate.ts';
import type { NewLog } from '../../../apps/server/src/db/repositories/log-repository.ts';
import { type BillingFloorResult, runBillingFloor } from './billing-floor.ts';

export interface BillingBenchResult extends BillingFloorResult {
  calls: number;
  /** CPU (user + system) per call of this process, microseconds. */
  reserveUs: number;
  settleUs: number;
  /** Share per call of the settlement writer's batch (log row, counters, ledger delete). */
  logRowUs: number;
  totalUs: number;
  /** reserve + settle + batch share per call with GROUP calls in flight (group commit at work). */
  groupedUs: number;
}

const BATCH = 50;
/** Calls in flight together in the grouped measurement. */
const GROUP = 8;
const quietLog = { error: () => undefined, info: () => undefined, warn: () => undefined } as never;

function consumeRow(index: number): NewLog {
  return {
    type: 2,
    user_id: 1,
    username: 'bench',
    token_id: 1,
    token_name: 'bench',
    model_name: 'gpt-4o-mini',
    quota: 123,
    prompt_tokens: 25,
    completion_tokens: 12,
    use_time: 0,
    is_stream: 0,
    channel_id: 1,
    group: 'default',
    ip: '127.0.0.1',
    content: '模型倍率 0.08，补全倍率 4.00，分组倍率 1.00',
    other: JSON.stringify({ frt: -1000, model_ratio: 0.075, request_id: `bench-${index}` }),
  } as NewLog;
}

const cpuUs = () => {
  const usage = process.cpuUsage();
  return usage.user + usage.system;
};

export async function runBillingBench(calls = 5_000): Promise<BillingBenchResult> {
  const directory = mkdtempSync(join(tmpdir(), 'switchyard-billing-bench-'));
  const file = join(directory, 'bench.db');
  const handle = openDatabase({ kind: 'sqlite', location: file } as never);
  try {
    await migrateDatabases(handle.db as never, null);
    const { db } = handle;
    await db
      .insertInto('users')
      .values({ id: 1, username: 'bench', password: 'x', quota: 1_000_000_000_000 } as never)
      .execute();
    await db
      .insertInto('tokens')
      .values({ id: 1, user_id: 1, key: 'k'.repeat(48), name: 'bench', unlimited_quota: 1 } as never)
      .execute();
    await db
      .insertInto('channels')
      .values({ id: 1, name: 'mock', key: 'x', models: 'gpt-4o-mini' } as never)
      .execute();
    const payer = { userId: 1, tokenId: 1, tokenUnlimited: true };
    const round = async (handleUsed: DatabaseHandle, count: number, offset: number) => {
      // The settlement writer flushes every BATCH calls: what settlements left to its batch, and the
      // log journal (in-place settlements' log rows, ADR-35) moved into logs.
      const writer = new SettlementWriter({
        database: handleUsed,
        logDatabase: handleUsed,
        log: quietLog,
        batchSize: 1_000_000,
        intervalMs: 3_600_000,
      });
      const billing = new BillingService(handleUsed, {
        instanceId: 'bench',
        settlements: writer,
      });
      let reserve = 0;
      let settle = 0;
      let log = 0;
      for (let i = 0; i < count; i++) {
        let at = cpuUs();
        const reservation = await billing.reserve(payer, 2_000, `bench-${offset + i}`);
        reserve += cpuUs() - at;
        at = cpuUs();
        await billing.settle(reservation, 1_234, 1, () => consumeRow(offset + i));
        settle += cpuUs() - at;
        // The writer's share: its batch (settlements left to it) and the log journal's move.
        if ((i + 1) % BATCH === 0) {
          at = cpuUs();
          await writer.flush();
          log += cpuUs() - at;
        }
      }
      await writer.close();
      return { reserve, settle, log };
    };
    // Under load several calls are in flight: waves of GROUP calls reserve together, then settle
    // together, and share the group commit's transactions (the batch is written as it fills).
    const grouped = async (count: number, offset: number) => {
      const writer = new SettlementWriter({
        database: handle,
        logDatabase: handle,
        log: quietLog,
        batchSize: BATCH,
        intervalMs: 3_600_000,
      });
      const billing = new BillingService(handle, {
        instanceId: 'bench',
        settlements: writer,
      });
      const at = cpuUs();
      for (let i = 0; i < count; i += GROUP) {
        const wave = Array.from({ length: GROUP }, (_, n) => offset + i + n);
        const reservations = await Promise.all(
          wave.map((index) => billing.reserve(payer, 2_000, `bench-${index}`)),
        );
        await Promise.all(
          reservations.map((reservation, n) =>
            billing.settle(reservation, 1_234, 1, () => consumeRow(wave[n]!)),
          ),
        );
      }
      await writer.close();
      return cpuUs() - at;
    };
    await round(handle, 1_000, 0); // warm-up: JIT, statement cache, table pages
    const measured = await round(handle, calls, 1_000);
    await grouped(1_000, 1_000 + calls);
    const inWaves = await grouped(calls, 2_000 + calls);
    const per = (us: number) => us / calls;
    const result = {
      calls,
      reserveUs: per(measured.reserve),
      settleUs: per(measured.settle),
      logRowUs: per(measured.log),
      totalUs: per(measured.reserve + measured.settle + measured.log),
      groupedUs: per(inWaves),
    };
    await handle.destroy();
    return { ...result, ...runBillingFloor(file, calls) };
  } finally {
    await handle.destroy().catch(() => undefined);
    rmSync(directory, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) {
  const result = await runBillingBench();
  process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
}
