/**
 * Micro-benchmark of what one relay call asks of the database, without HTTP: the reservation
 * (BillingService.reserve), the settlement (BillingService.settle) and its share of a batched
 * consume-log insert (LogRepository.insertMany, 200 rows at a time), on SQLite in a temporary
 * directory with the real migrations. This is the part of Switchyard's per-request CPU that no
 * relay change can remove; the report sets it beside the measured CPU per request. Then the same
 * work without the query builder, and in the shape issue 9 asks for (see billing-floor.ts).
 *
 *   node --conditions=source --import tsx bench/src/micro/billing-bench.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BillingService } from '../../../apps/server/src/billing/billing-service.ts';
import { openDatabase } from '../../../apps/server/src/db/database.ts';
import { migrateDatabases } from '../../../apps/server/src/db/migrate.ts';
import { LogRepository, type NewLog } from '../../../apps/server/src/db/repositories/log-repository.ts';
import { type BillingFloorResult, runBillingFloor } from './billing-floor.ts';

export interface BillingBenchResult extends BillingFloorResult {
  calls: number;
  /** CPU (user + system) per call of this process, microseconds. */
  reserveUs: number;
  settleUs: number;
  logRowUs: number;
  totalUs: number;
}

const LOG_BATCH = 200;

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
    const billing = new BillingService(handle);
    const logs = new LogRepository(handle.db);
    const payer = { userId: 1, tokenId: 1, tokenUnlimited: true };
    const round = async (count: number, offset: number) => {
      let reserve = 0;
      let settle = 0;
      let log = 0;
      let rows: NewLog[] = [];
      for (let i = 0; i < count; i++) {
        let at = cpuUs();
        const reservation = await billing.reserve(payer, 2_000, `bench-${offset + i}`);
        reserve += cpuUs() - at;
        at = cpuUs();
        await billing.settle(reservation, 1_234, 1);
        settle += cpuUs() - at;
        rows.push(consumeRow(offset + i));
        if (rows.length === LOG_BATCH) {
          at = cpuUs();
          await logs.insertMany(rows);
          log += cpuUs() - at;
          rows = [];
        }
      }
      return { reserve, settle, log };
    };
    await round(1_000, 0); // warm-up: JIT, statement cache, table pages
    const measured = await round(calls, 1_000);
    const per = (us: number) => us / calls;
    const result = {
      calls,
      reserveUs: per(measured.reserve),
      settleUs: per(measured.settle),
      logRowUs: per(measured.log),
      totalUs: per(measured.reserve + measured.settle + measured.log),
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
