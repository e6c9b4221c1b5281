import { type Kysely, sql } from 'kysely';
import type { SchemaMap } from './schema-inspector.ts';

/**
 * Legacy values Switchyard reads under another column, copied into that column (the legacy
 * column stays as it is): GORM named new-api's `OpenAIOrganization` field `open_ai_organization`;
 * one-api keeps a token's allowed models in `models` (a limit whenever it is not empty) and its
 * allowed addresses in `subnet`.
 */
export interface CarriedValue {
  table: string;
  column: string;
  from: string;
  as: 'copy' | 'flag';
}

export const carriedValues: CarriedValue[] = [
  { table: 'channels', column: 'openai_organization', from: 'open_ai_organization', as: 'copy' },
  { table: 'tokens', column: 'model_limits', from: 'models', as: 'copy' },
  { table: 'tokens', column: 'model_limits_enabled', from: 'models', as: 'flag' },
  { table: 'tokens', column: 'allow_ips', from: 'subnet', as: 'copy' },
];

/** The rules that apply to a database: both columns are there (after the additions). */
export function applicableCarries(schema: SchemaMap, added: ReadonlySet<string>): CarriedValue[] {
  return carriedValues.filter((rule) => {
    const columns = schema.get(rule.table);
    return columns?.has(rule.from) && (columns.has(rule.column) || added.has(`${rule.table}.${rule.column}`));
  });
}

/** One line naming a carry, as logged. */
export function describeCarry(rule: CarriedValue): string {
  return `${rule.as === 'copy' ? 'copied' : 'set'} ${rule.table}.${rule.column} from ${rule.table}.${rule.from}`;
}

/**
 * Fills the column from the legacy one for every row where the legacy one holds a value. Writing
 * the same values again is harmless, so a run interrupted here is finished by the next one.
 */
export async function carryValue(db: Kysely<unknown>, rule: CarriedValue): Promise<void> {
  const from = sql.ref(rule.from);
  const value = rule.as === 'copy' ? from : sql.lit(1);
  await sql`update ${sql.table(rule.table)} set ${sql.ref(rule.column)} = ${value}
    where ${from} is not null and ${from} <> ''`.execute(db);
}
