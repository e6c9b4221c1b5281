import {
  type ColumnDefinitionBuilder,
  type CreateTableBuilder,
  type Kysely,
  MysqlAdapter,
  PostgresAdapter,
} from 'kysely';
import type { DatabaseKind } from '../../config/env.ts';

/** Which SQL dialect a Kysely instance speaks (migrations receive only the instance). */
export function dialectOf(db: Kysely<unknown>): DatabaseKind {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof PostgresAdapter) return 'postgres';
  if (adapter instanceof MysqlAdapter) return 'mysql';
  return 'sqlite';
}

/** Adds an auto-increment integer primary key named `id` in the dialect's own spelling. */
export function withIdColumn<T extends string>(
  table: CreateTableBuilder<T, never>,
  kind: DatabaseKind,
  big = false,
): CreateTableBuilder<T, 'id'> {
  if (kind === 'postgres') return table.addColumn('id', big ? 'bigserial' : 'serial', (c) => c.primaryKey());
  if (kind === 'mysql')
    return table.addColumn('id', big ? 'bigint' : 'integer', (c) => c.primaryKey().autoIncrement());
  return table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

/** NOT NULL with a default, the common shape of counters and flags. */
export const notNullDefault =
  (value: string | number) =>
  (column: ColumnDefinitionBuilder): ColumnDefinitionBuilder =>
    column.notNull().defaultTo(value);
