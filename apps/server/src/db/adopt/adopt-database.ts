import { type Kysely, sql } from 'kysely';
import type { DatabaseKind } from '../../config/env.ts';
import type { DatabaseHandle } from '../database.ts';
import { knownMigrationNames } from '../migrate.ts';
import { deletedAtStyles } from '../soft-delete.ts';
import {
  type AdoptionPlan,
  type ColumnAddition,
  describeAddition,
  planColumnAdditions,
} from './plan-adoption.ts';
import { AdoptionRefused, recogniseSource } from './recognise-source.ts';
import { logTableColumns, mainTableColumns } from './required-columns.ts';
import { readMigrationNames, readSchema, type SchemaMap } from './schema-inspector.ts';

/**
 * Legacy values Switchyard reads under another column, copied into that column in the step that
 * adds it (the legacy column stays as it is): GORM named new-api's `OpenAIOrganization` field
 * `open_ai_organization`; one-api keeps a token's allowed models in `models` (a limit whenever it
 * is not empty) and its allowed addresses in `subnet`.
 */
const carriedValues: Array<{ table: string; column: string; from: string; as: 'copy' | 'flag' }> = [
  { table: 'channels', column: 'openai_organization', from: 'open_ai_organization', as: 'copy' },
  { table: 'tokens', column: 'model_limits', from: 'models', as: 'copy' },
  { table: 'tokens', column: 'model_limits_enabled', from: 'models', as: 'flag' },
  { table: 'tokens', column: 'allow_ips', from: 'subnet', as: 'copy' },
];

/** Fills a column just added from the legacy column that holds its values, when the table has one. */
async function carryValues(
  db: Kysely<unknown>,
  schema: SchemaMap,
  { table, column }: ColumnAddition,
  log: AdoptionLog,
) {
  for (const rule of carriedValues) {
    if (rule.table !== table || rule.column !== column.name || !schema.get(table)?.has(rule.from)) continue;
    const from = sql.ref(rule.from);
    const value = rule.as === 'copy' ? from : sql.lit(1);
    await sql`update ${sql.table(table)} set ${sql.ref(column.name)} = ${value}
      where ${from} is not null and ${from} <> ''`.execute(db);
    log.info(
      `adopt: ${rule.as === 'copy' ? 'copied' : 'set'} ${table}.${column.name} from ${table}.${rule.from}`,
    );
  }
}

/** Where adoption writes its one-line steps (the app's logger, or the console for the check). */
export interface AdoptionLog {
  info(message: string): void;
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
    throw new Error(
      `adoption failed adding ${describeAddition(addition)}: ${error instanceof Error ? error.message : String(error)}; nothing else was changed by this step, start again to finish`,
    );
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
  for (const addition of plan.additions) {
    await addColumn(main.db as Kysely<unknown>, main.kind, addition);
    log.info(`adopt: added column ${describeAddition(addition)}`);
    await carryValues(main.db as Kysely<unknown>, plan.schema, addition, log);
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
      await addColumn(logs.db as Kysely<unknown>, logs.kind, addition);
      log.info(`adopt: added column ${describeAddition(addition)} (log database)`);
    }
  }
  return plan;
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
