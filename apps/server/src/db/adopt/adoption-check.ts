import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { DatabaseTarget } from '../../config/env.ts';
import { DEFAULT_SQLITE_FILE, openDatabase } from '../database.ts';
import { planAdoption } from './adopt-database.ts';
import { type ChannelTypeRenumbering, planChannelTypeRenumbering } from './one-api-channel-type.ts';
import { type AdoptionPlan, describeAddition } from './plan-adoption.ts';
import { countRows, type SchemaMap } from './schema-inspector.ts';

/**
 * The check's report: what was recognised, row counts, the columns adoption would add and, for a
 * one-api database, the channels whose type it would renumber or disable.
 */
export function formatCheckReport(
  plan: AdoptionPlan,
  counts: ReadonlyMap<string, number>,
  channelTypes?: ChannelTypeRenumbering,
): string[] {
  const { source, additions } = plan;
  const lines: string[] = [];
  if (source.product === 'empty') lines.push('database: empty (Switchyard will create its tables at start)');
  else lines.push(`database: ${source.product}${source.version ? ` (${source.version})` : ''}`);
  if (source.firstAdoption) lines.push('adoption: the first start adopts it in place (additive only)');
  lines.push('tables:');
  for (const [table, count] of [...counts].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`  ${table}: ${count} rows`);
  }
  if (additions.length === 0) lines.push('columns to add: none');
  else {
    lines.push(`columns to add (${additions.length}):`);
    for (const addition of additions) lines.push(`  ${describeAddition(addition)}`);
  }
  if (channelTypes !== undefined) {
    lines.push("channels.one_api_type: added, keeping each channel's one-api type");
    const ids = (list: number[]) => (list.length === 0 ? 'none' : list.join(', '));
    lines.push(`channel types renumbered to Switchyard's: ${ids(channelTypes.renumbered)}`);
    lines.push(`channels disabled (type with no Switchyard equivalent): ${ids(channelTypes.disabled)}`);
  }
  return lines;
}

/**
 * Reads the configured database and reports what adoption would do, changing nothing (SQLite is
 * opened read-only). Throws AdoptionRefused, with its reason, for a database it would refuse.
 */
export async function checkAdoption(target: DatabaseTarget, logsInMain: boolean): Promise<string[]> {
  let db: Kysely<unknown>;
  if (target.kind === 'sqlite') {
    const file = target.location || DEFAULT_SQLITE_FILE;
    db = new Kysely<unknown>({
      dialect: new SqliteDialect({ database: new SQLite(file, { readonly: true, fileMustExist: true }) }),
    });
  } else {
    db = openDatabase(target).db as Kysely<unknown>;
  }
  try {
    const plan = await planAdoption(db, target.kind, logsInMain);
    return formatCheckReport(plan, await countTables(db, plan.schema), await channelTypesOf(db, plan));
  } finally {
    await db.destroy();
  }
}

/** On a one-api database not yet adopted: what the type renumbering would do to its channels. */
async function channelTypesOf(
  db: Kysely<unknown>,
  plan: AdoptionPlan & { schema: SchemaMap },
): Promise<ChannelTypeRenumbering | undefined> {
  const { source, schema } = plan;
  if (!source.firstAdoption || source.product !== 'one-api' || !schema.get('channels')?.has('type'))
    return undefined;
  const channels = db as unknown as Kysely<{ channels: { id: number; type: number } }>;
  const rows = await channels.selectFrom('channels').select(['id', 'type']).execute();
  return planChannelTypeRenumbering(rows.map((row) => ({ id: Number(row.id), type: Number(row.type) })));
}

async function countTables(db: Kysely<unknown>, schema: SchemaMap): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  for (const table of schema.keys()) counts.set(table, await countRows(db, table));
  return counts;
}
