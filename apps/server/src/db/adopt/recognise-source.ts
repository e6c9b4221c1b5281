import type { RequiredColumn } from './required-columns.ts';
import type { SchemaMap } from './schema-inspector.ts';

/** The product whose tables a database holds. */
export type SourceProduct = 'empty' | 'switchyard' | 'new-api' | 'one-api';

export interface SourceReport {
  product: SourceProduct;
  /** What the tables say about the version, e.g. "v0.4.8 or later (no setups row)". */
  version: string;
  /** Written by new-api/one-api and not adopted yet: a first adoption (SQLite copies the file first). */
  firstAdoption: boolean;
}

/** The database is not one Switchyard can adopt; nothing was changed. */
export class AdoptionRefused extends Error {
  override name = 'AdoptionRefused';
}

/** Tables and columns new-api and one-api both have; a database without them is not theirs. */
const legacyCore: Record<string, string[]> = {
  users: ['id', 'username', 'password', 'role', 'status', 'quota', 'group'],
  tokens: ['id', 'user_id', 'key', 'status', 'remain_quota', 'unlimited_quota'],
  channels: ['id', 'type', 'key', 'status', 'models', 'group'],
  abilities: ['group', 'model', 'channel_id', 'enabled'],
  options: ['key', 'value'],
};

const has = (schema: SchemaMap, table: string, column?: string) =>
  schema.has(table) && (column === undefined || (schema.get(table)?.has(column) ?? false));

function describeTables(schema: SchemaMap): string {
  const names = [...schema.keys()].sort();
  if (names.length === 0) return 'no tables';
  const shown = names.slice(0, 12).join(', ');
  return `tables ${shown}${names.length > 12 ? `, … (${names.length} in all)` : ''}`;
}

function newApiVersion(schema: SchemaMap, setupVersion: string | null): string {
  if (setupVersion) return setupVersion;
  if (has(schema, 'users', 'setting') && has(schema, 'channels', 'tag')) return 'v0.4.8 or later';
  if (has(schema, 'channels', 'tag')) return 'v0.4.x before v0.4.8';
  return 'before v0.4';
}

/**
 * Says which product wrote the database, from its tables alone. A database from another product,
 * or from a newer Switchyard, is refused (the message names what was found).
 */
export function recogniseSource(
  schema: SchemaMap,
  migrationNames: readonly string[],
  knownMigrations: ReadonlySet<string>,
  setupVersion: string | null,
): SourceReport {
  if (schema.size === 0) return { product: 'empty', version: '', firstAdoption: false };
  if (has(schema, 'switchyard_migrations')) {
    const unknown = migrationNames.filter((name) => !knownMigrations.has(name));
    if (unknown.length > 0) {
      throw new AdoptionRefused(
        `the database was migrated by a newer Switchyard (migrations ${unknown.join(', ')} are unknown to this build); start that version or a newer one`,
      );
    }
    const halfAdopted = has(schema, 'channels') && !has(schema, 'channels', 'param_override');
    return {
      product: 'switchyard',
      version: halfAdopted ? 'migrated, legacy columns still missing' : 'current',
      firstAdoption: false,
    };
  }
  const missing: string[] = [];
  for (const [table, columns] of Object.entries(legacyCore)) {
    if (!has(schema, table)) missing.push(`table ${table}`);
    else for (const column of columns) if (!has(schema, table, column)) missing.push(`${table}.${column}`);
  }
  if (missing.length > 0) {
    throw new AdoptionRefused(
      `the database is not one written by new-api, one-api or Switchyard (found ${describeTables(schema)}; missing ${missing.slice(0, 6).join(', ')}); nothing was changed`,
    );
  }
  const oneApi = has(schema, 'channels', 'config') && !has(schema, 'midjourneys');
  if (oneApi) {
    const version = has(schema, 'channels', 'system_prompt') ? 'v0.6.x' : 'before v0.6';
    return { product: 'one-api', version, firstAdoption: true };
  }
  return { product: 'new-api', version: newApiVersion(schema, setupVersion), firstAdoption: true };
}

type TypeClass = 'number' | 'text' | 'time' | 'other';

/** The broad class of a declared column type, on any of the three databases. */
export function classifyType(declared: string): TypeClass {
  const type = declared.toLowerCase();
  if (/int|numeric|decimal|real|double|float|bool/.test(type)) return 'number';
  if (/char|text|json|blob|clob|bytea|enum/.test(type)) return 'text';
  if (/date|time/.test(type)) return 'time';
  // SQLite lets a column have no declared type; any value fits it.
  return type === '' ? 'number' : 'other';
}

/**
 * Columns Switchyard needs that exist with a type it cannot use (a newer, incompatible version of
 * the source product). `deleted_at` may be a number (Switchyard) or a datetime (GORM).
 */
export function incompatibleColumns(schema: SchemaMap, required: Record<string, RequiredColumn[]>): string[] {
  const found: string[] = [];
  for (const [table, columns] of Object.entries(required)) {
    const existing = schema.get(table);
    if (existing === undefined) continue;
    for (const column of columns) {
      const declared = existing.get(column.name);
      if (declared === undefined) continue;
      const actual = classifyType(declared);
      const wanted = classifyType(column.type);
      const fits =
        actual === wanted ||
        (wanted === 'text' && actual === 'number' && declared === '') ||
        (column.name === 'deleted_at' && actual === 'time');
      if (!fits) found.push(`${table}.${column.name} is ${declared}`);
    }
  }
  return found;
}
