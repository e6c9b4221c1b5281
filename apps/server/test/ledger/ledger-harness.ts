import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import type { BillingService, ConsumeLogBuilder, Payer } from '../../src/billing/ledger/billing-service.ts';
import { reconcileReservations } from '../../src/billing/ledger/reservation-ledger.ts';
import { type Config, loadConfig } from '../../src/config/env.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

/**
 * The one place the ledger conformance suite touches the server's wiring. Every test file gets its
 * ledger from a real app built by `buildApp` on a fresh database of the run's kind (TEST_DB), so
 * the suite checks the ledger the server runs, whichever implementation and path that is. A new
 * ledger implementation joins the suite by being what `buildApp` wires; if the names below move
 * (the billing service, the flush, reconciliation), only this file changes.
 */

process.env.BCRYPT_COST ??= '4';

/** A logger that drops everything: ledger failures are expected in these tests. */
export const quietLog = { warn: () => undefined, error: () => undefined, info: () => undefined } as never;

/**
 * Ledger intervals that keep background work out of a test's way: settled calls are written only
 * when the test flushes (or the app closes), heartbeats and sweeps never come during a test.
 */
export const MANUAL_LEDGER_ENV = {
  SETTLEMENT_FLUSH_MS: '3600000',
  SETTLEMENT_BATCH_SIZE: '100000',
  NODE_HEARTBEAT_MS: '600000',
  NODE_DEAD_AFTER_MS: '1800000',
  LEDGER_SWEEP_MS: '3600000',
};

/** How long a process may miss heartbeats under MANUAL_LEDGER_ENV before it counts as dead. */
export const DEAD_AFTER_MS = Number(MANUAL_LEDGER_ENV.NODE_DEAD_AFTER_MS);

/** A running app and the ledger it wired. */
export interface LedgerApp {
  app: FastifyInstance;
  database: TestDatabase;
  /** The main database, as the app opened it. */
  handle: DatabaseHandle;
  billing: BillingService;
  /** This process's node instance id (stamped on its ledger rows). */
  instanceId: string;
  /** Waits for running settlements and writes every settled call (consume rows and counters). */
  flush(): Promise<void>;
  /** Closes the app (its own shutdown: final flush, node row removed). */
  close(): Promise<void>;
}

/**
 * Builds the app on `database` (a fresh one when absent; the caller then owns dropping it only
 * when it passed one). The ledger reads its timing from the process environment at build time, so
 * `env` is applied there for the build and restored after.
 */
export async function openLedgerApp(
  env: Record<string, string> = {},
  shared?: TestDatabase,
): Promise<LedgerApp> {
  const database = shared ?? (await createTestDatabase());
  const saved = Object.fromEntries(Object.keys(env).map((key) => [key, process.env[key]]));
  Object.assign(process.env, env);
  let app: FastifyInstance;
  try {
    const config: Config = {
      ...loadConfig({
        GLOBAL_API_RATE_LIMIT_ENABLE: 'false',
        CRITICAL_RATE_LIMIT: '100000',
        SESSION_SECRET: 'switchyard-ledger-conformance',
        UPDATE_TASK: 'false',
        ...env,
      }),
      database: database.target,
    };
    app = await buildApp({ config, logger: false });
  } catch (error) {
    if (!shared) await database.drop();
    throw error;
  } finally {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
  const relay = app.services.relay;
  return {
    app,
    database,
    handle: app.services.database,
    billing: relay.billing,
    instanceId: relay.billing.instanceId,
    flush: () => relay.drain(),
    close: async () => {
      await app.close();
      if (!shared) await database.drop();
    },
  };
}

/**
 * Reconciles the ledger as another, live process would, at time `at`: a time more than
 * DEAD_AFTER_MS past the last heartbeats takes every other process for dead. `handle` is that
 * process's connection (another app's, or a second pool on the same database).
 */
export function reconcileAsSurvivor(handle: DatabaseHandle, instanceId: string, at = Date.now()) {
  return reconcileReservations(
    {
      database: handle,
      logDatabase: handle,
      formatQuota: String,
      log: quietLog,
      instanceId,
      deadAfterMs: DEAD_AFTER_MS,
    },
    at,
  );
}

/** A time at which every process that beat before now counts as dead. */
export const afterEveryoneDied = () => Date.now() + DEAD_AFTER_MS + 60_000;

/** One user with one token, and a channel their calls are charged to. */
export interface Account {
  name: string;
  userId: number;
  tokenId: number;
  channelId: number;
  payer: Payer;
}

let nextId = 1000;

/** Adds a user with `quota`, a token (limited to `tokenRemain` unless unlimited) and a channel. */
export async function seedAccount(
  handle: DatabaseHandle,
  seed: { quota: number; tokenRemain?: number; unlimited?: boolean },
): Promise<Account> {
  nextId += 1;
  const id = nextId;
  const name = `ledger${id}`;
  const unlimited = seed.unlimited ?? false;
  await handle.db
    .insertInto('users')
    .values({ id, username: name, quota: seed.quota, aff_code: name, access_token: null })
    .execute();
  await handle.db
    .insertInto('tokens')
    .values({
      id,
      user_id: id,
      key: `${name}key`,
      name,
      remain_quota: seed.tokenRemain ?? seed.quota,
      unlimited_quota: unlimited ? 1 : 0,
    })
    .execute();
  await handle.db
    .insertInto('channels')
    .values({ id, name, key: 'k', models: 'gpt-4o' } as never)
    .execute();
  return {
    name,
    userId: id,
    tokenId: id,
    channelId: id,
    payer: { userId: id, tokenId: id, tokenUnlimited: unlimited },
  };
}

/** The consume log row of one settlement, carrying what it charged and its request id. */
export function consumeLog(account: Account, requestId: string): ConsumeLogBuilder {
  return (charged) => ({
    type: 2,
    user_id: account.userId,
    username: account.name,
    token_id: account.tokenId,
    token_name: account.name,
    channel_id: account.channelId,
    quota: charged,
    content: 'ledger conformance',
    other: JSON.stringify({ request_id: requestId }),
  });
}
