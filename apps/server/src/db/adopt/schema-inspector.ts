import { type Kysely, sql } from 'kysely';
import type { DatabaseKind } from '../../config/env.ts';

/** Table name → column name → declared type (lower case), as the database reports them. */
export type SchemaMap = Map<string, Map<string, string>>;

/** Reads every table's columns in the connected database (current schema on PostgreSQL/MySQL). */
export async function readSchema(db: Kysely<unknown>, kind: DatabaseKind): Promise<SchemaMap> {
  const schema: SchemaMap = new Map();
  const add = (table: string, column: string, type: string) => {
    let columns = schema.get(table);
    if (columns === undefined) {
      columns = new Map();
      schema.set(table, columns);
    }
    columns.set(column, type.toLowerCase());
  };
  if (kind === 'sqlite') {
    const tables = await sql<{ name: string }>`
      select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(db);
    for (const { name } of tables.rows) {
      const columns = await sql<{ name: string; type: string }>`
        select name, type from pragma_table_info(${name})`.execute(db);
      for (const column of columns.rows) add(name, column.name, column.type);
    }
    return schema;
  }
  const rows =
    kind === 'postgres'
      ? await sql<{ table_name: string; column_name: string; data_type: string }>`
          select c.table_name, c.column_name, c.data_type from information_schema.columns c
          join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
          where c.table_schema = current_schema() and t.table_type = 'BASE TABLE'
          order by c.table_name, c.ordinal_position`.execute(db)
      : await sql<{ table_name: string; column_name: string; data_type: string }>`
          select c.TABLE_NAME as table_name, c.COLUMN_NAME as column_name, c.COLUMN_TYPE as data_type
          from information_schema.COLUMNS c
          join information_schema.TABLES t on t.TABLE_SCHEMA = c.TABLE_SCHEMA and t.TABLE_NAME = c.TABLE_NAME
          where c.TABLE_SCHEMA = database() and t.TABLE_TYPE = 'BASE TABLE'
          order by c.TABLE_NAME, c.ORDINAL_POSITION`.execute(db);
  for (const row of rows.rows) add(row.table_name, row.column_name, row.data_type);
  return schema;
}

/** Names recorded in Switchyard's migration logs (empty when the tables do not exist). */
export async function readMigrationNames(db: Kysely<unknown>, schema: SchemaMap): Promise<string[]> {
  const names: string[] = [];
  for (const table of ['switchyard_migrations', 'switchyard_log_migrations']) {
    if (!schema.has(table)) continue;
    const rows = await sql<{ name: string }>`select name from ${sql.table(table)}`.execute(db);
    for (const row of rows.rows) names.push(row.name);
  }
  return names;
}

/** Row count of a table. */
export async function countRows(db: Kysely<unknown>, table: string): Promise<number> {
  const result = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}
