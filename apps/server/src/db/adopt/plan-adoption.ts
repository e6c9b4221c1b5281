import { incompatibleColumns, type SourceReport } from './recognise-source.ts';
import type { RequiredColumn } from './required-columns.ts';
import type { SchemaMap } from './schema-inspector.ts';

/** One column to add to a table that exists without it. */
export interface ColumnAddition {
  table: string;
  column: RequiredColumn;
}

/** What adoption would do on one database. */
export interface AdoptionPlan {
  source: SourceReport;
  additions: ColumnAddition[];
}

/**
 * The columns missing from tables that exist (tables that do not exist are the migrations' job).
 * Refuses (returns the problems) when a needed column exists with a type Switchyard cannot use.
 */
export function planColumnAdditions(
  schema: SchemaMap,
  required: Record<string, RequiredColumn[]>,
): { additions: ColumnAddition[]; incompatible: string[] } {
  const additions: ColumnAddition[] = [];
  for (const [table, columns] of Object.entries(required)) {
    const existing = schema.get(table);
    if (existing === undefined) continue;
    for (const column of columns) if (!existing.has(column.name)) additions.push({ table, column });
  }
  return { additions, incompatible: incompatibleColumns(schema, required) };
}

/** One line describing an addition, as logged and as printed by the check. */
export function describeAddition({ table, column }: ColumnAddition): string {
  const fallback =
    column.fallback === undefined
      ? ' (null)'
      : ` not null default ${typeof column.fallback === 'string' ? `'${column.fallback}'` : column.fallback}`;
  return `${table}.${column.name} ${column.type}${fallback}`;
}
