import { type Kysely, sql } from 'kysely';
import type { DatabaseKind } from '../../config/env.ts';
import type { DatabaseHandle } from '../database.ts';
import { knownMigrationNames } from '../migrate.ts';
import { deletedAtStyles } from '../soft-delete.ts';
import { applicableCarries, carryValue, describeCarry } from './carry-values.ts';
import { carryChannelConfigs } from './channel-config.ts';
import { renumberOneApiChannelTypes } from './one-api-channel-type.ts';
import {
  type AdoptionPlan,
  type ColumnAddition,
  describeAddition,
  planColumnAdditions,
} from './plan-adoption.ts';
import { AdoptionRefused, recogniseSource } from './recognise-source.ts';
import { logTableColumns, mainTableColumns } from './required-columns.ts';
import { readMigrationNames, readSchema, type SchemaMap } from './schema-inspector.ts';

/** Where adoption writes its one-line steps (the app's logger, or the console for the check). */
export interface AdoptionLog {
  info(message: string): void;
  error(message: string): void;
}

/**
 * Runs one adoption step. A failure is logged and thrown naming the step; the steps before it
 * stay done, and as every step is idempotent the next start finishes the job.
 */
async function step(log: AdoptionLog, name: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    const message = `adopt: failed ${name}: ${error instanceof Error ? error.message : String(error)}; the steps before it are kept, remove the cause and start again to finish adoption`;
    log.error(message);
    throw new Error(message, { cause: error });
  }
}

/** The version a later new-api records in its `setups` table, when there is one. */
async function readSetupVersion(db: Kysely<unknown>, schema: SchemaMap): Promise<string | null> {
  if (!schema.get('setups')?.has('version')) return null;
  const rows = await sql<{ version: string }>`select version from setups order by id desc`.execute(db);
  return rows.rows[0]?.version ?? null;
}

/**
 * Reads a database and says what adoption would do: the product that wrote it and the columns to
 * add. Changes nothing. `withLogs` includes the log table (the main database holds the logs).
 * Throws AdoptionRefused for a database Switchyard cannot adopt.
 */
export async function planAdoption(
  db: Kysely<unknown>,
  kind: DatabaseKind,
  withLogs: boolean,
): Promise<AdoptionPlan & { schema: SchemaMap }> {
  const schema = await readSchema(db, kind);
  const migrations = await readMigrationNames(db, schema);
  const source = recogniseSource(schema, migrations, knownMigrationNames, await readSetupVersion(db, schema));
  const required = withLogs ? { ...mainTableColumns, ...logTableColumns } : mainTableColumns;
  const { additions, incompatible } = planColumnAdditions(schema, required);
  if (incompatible.length > 0) {
    throw new AdoptionRefused(
      `the ${source.product} database has columns of a type Switchyard cannot use (${incompatible.join('; ')}): a newer, incompatible version? nothing was changed`,
    );
  }
  if (source.firstAdoption) await refuseDuplicateBuckets(db, schema);
  return { source, additions, schema };
}

/**
 * Migration 001 puts a unique index on quota_data's (user, model, hour) buckets. new-api keeps
 * them unique too, except when several of its nodes raced; refuse before changing anything
 * rather than stop half-way in the migration (rows are never deleted by adoption).
 */
async function refuseDuplicateBuckets(db: Kysely<unknown>, schema: SchemaMap): Promise<void> {
  const columns = schema.get('quota_data');
  if (!columns?.has('user_id') || !columns.has('model_name') || !columns.has('created_at')) return;
  const result = await sql<{ n: number | string }>`
    select count(*) as n from (select user_id from quota_data
      group by user_id, model_name, created_at having count(*) > 1) duplicates`.execute(db);
  const duplicates = Number(result.rows[0]?.n ?? 0);
  if (duplicates > 0) {
    throw new AdoptionRefused(
      `quota_data holds ${duplicates} (user_id, model_name, created_at) bucket(s) in more than one row, which Switchyard's unique index forbids; merge them (sum token_used, count, quota into one row per bucket) and start again; nothing was changed`,
    );
  }
}

/** Adds one column; an addition another node made meanwhile counts as done. */
async function addColumn(db: Kysely<unknown>, kind: DatabaseKind, addition: ColumnAddition): Promise<void> {
  const { table, column } = addition;
  try {
    await db.schema
      .alterTable(table)
      .addColumn(column.name, column.type as 'text', (c) =>
        column.fallback === undefined ? c : c.notNull().defaultTo(column.fallback),
      )
      .execute();
  } catch (error) {
    const now = await readSchema(db, kind);
    if (now.get(table)?.has(column.name)) return;
    throw error;
  }
}

/**
 * Brings an existing database to the columns Switchyard's code reads, before the migrations run:
 * recognises the product (refusing what it cannot adopt), then only adds columns, one logged line
 * each. Idempotent: a second run finds nothing to add. Also the start-up check of every database,
 * so one the migration log calls current but that lacks columns is repaired.
 */
export async function adoptDatabase(
  main: DatabaseHandle,
  logs: DatabaseHandle | null,
  log: AdoptionLog,
): Promise<AdoptionPlan> {
  const plan = await planAdoption(main.db as Kysely<unknown>, main.kind, logs === null);
  if (plan.source.firstAdoption) {
    log.info(`adopt: found a ${plan.source.product} database (${plan.source.version}); adopting it in place`);
  } else if (plan.additions.length > 0) {
    log.info(
      `adopt: the ${plan.source.product} database lacks ${plan.additions.length} column(s); adding them`,
    );
  }
  const db = main.db as Kysely<unknown>;
  for (const addition of plan.additions) {
    await step(log, `adding column ${describeAddition(addition)}`, () => addColumn(db, main.kind, addition));
    log.info(`adopt: added column ${describeAddition(addition)}`);
  }
  // A first adoption carries every legacy value over (again, after an interrupted run); later
  // starts only fill a column they have just added, so values edited since are never overwritten.
  const added = new Set(plan.additions.map(({ table, column }) => `${table}.${column.name}`));
  for (const rule of applicableCarries(plan.schema, added)) {
    if (!plan.source.firstAdoption && !added.has(`${rule.table}.${rule.column}`)) continue;
    await step(log, `carrying ${rule.table}.${rule.from} over to ${rule.table}.${rule.column}`, () =>
      carryValue(db, rule),
    );
    log.info(`adopt: ${describeCarry(rule)}`);
  }
  if (plan.source.firstAdoption && plan.schema.get('channels')?.has('config')) {
    let changed: number[] = [];
    await step(log, 'translating channels.config (Azure API version, AWS key)', async () => {
      changed = await carryChannelConfigs(db);
    });
    if (changed.length > 0) {
      log.info(
        `adopt: translated channels.config of channel(s) ${changed.join(', ')} (Azure API version, AWS key)`,
      );
    }
  }
  if (plan.source.firstAdoption && plan.source.product === 'one-api' && plan.schema.has('channels')) {
    await adoptOneApiChannelTypes(db, main.kind, plan.schema, log);
  }
  if (logs !== null) {
    const logSchema = await readSchema(logs.db as Kysely<unknown>, logs.kind);
    const logPlan = planColumnAdditions(logSchema, logTableColumns);
    if (logPlan.incompatible.length > 0) {
      throw new AdoptionRefused(
        `the log database has columns of a type Switchyard cannot use (${logPlan.incompatible.join('; ')}); nothing was changed`,
      );
    }
    for (const addition of logPlan.additions) {
      await step(log, `adding column ${describeAddition(addition)} (log database)`, () =>
        addColumn(logs.db as Kysely<unknown>, logs.kind, addition),
      );
      log.info(`adopt: added column ${describeAddition(addition)} (log database)`);
    }
  }
  return plan;
}

/**
 * Keeps each one-api channel's type in the added `channels.one_api_type` and gives `type`
 * Switchyard's number for the same provider; a type without one stays and its channel is disabled.
 */
async function adoptOneApiChannelTypes(
  db: Kysely<unknown>,
  kind: DatabaseKind,
  schema: SchemaMap,
  log: AdoptionLog,
): Promise<void> {
  if (!schema.get('channels')?.has('one_api_type')) {
    const addition: ColumnAddition = { table: 'channels', column: { name: 'one_api_type', type: 'integer' } };
    await step(log, `adding column ${describeAddition(addition)}`, () => addColumn(db, kind, addition));
    log.info(`adopt: added column ${describeAddition(addition)}`);
  }
  let done = { renumbered: [] as number[], disabled: [] as number[] };
  await step(log, "renumbering one-api's channel types", async () => {
    done = await renumberOneApiChannelTypes(db);
  });
  if (done.renumbered.length > 0) {
    log.info(
      `adopt: gave channel(s) ${done.renumbered.join(', ')} Switchyard's number for their one-api type (the old one kept in channels.one_api_type)`,
    );
  }
  if (done.disabled.length > 0) {
    log.info(
      `adopt: disabled channel(s) ${done.disabled.join(', ')}: their one-api type has no Switchyard equivalent (kept in type and channels.one_api_type)`,
    );
  }
}

/** Reads how the soft-delete tables store `deleted_at` and records it on the handle. */
export async function detectDeletedAtStyles(handle: DatabaseHandle): Promise<void> {
  const schema = await readSchema(handle.db as Kysely<unknown>, handle.kind);
  handle.deletedAt = deletedAtStyles({
    users: schema.get('users')?.get('deleted_at'),
    tokens: schema.get('tokens')?.get('deleted_at'),
    redemptions: schema.get('redemptions')?.get('deleted_at'),
  });
}
