import { describe, expect, it } from 'vitest';
import { classifyType, incompatibleColumns, recogniseSource } from './recognise-source.ts';
import { mainTableColumns } from './required-columns.ts';
import type { SchemaMap } from './schema-inspector.ts';

const schemaOf = (tables: Record<string, Record<string, string>>): SchemaMap =>
  new Map(Object.entries(tables).map(([table, columns]) => [table, new Map(Object.entries(columns))]));

const legacy = {
  users: {
    id: 'integer',
    username: 'text',
    password: 'text',
    role: 'int',
    status: 'int',
    quota: 'int',
    group: 'varchar(64)',
  },
  tokens: {
    id: 'integer',
    user_id: 'integer',
    key: 'char(48)',
    status: 'integer',
    remain_quota: 'integer',
    unlimited_quota: 'numeric',
  },
  channels: {
    id: 'integer',
    type: 'integer',
    key: 'text',
    status: 'integer',
    models: 'text',
    group: 'varchar(64)',
  },
  abilities: { group: 'varchar(64)', model: 'varchar(255)', channel_id: 'integer', enabled: 'numeric' },
  options: { key: 'text', value: 'text' },
};
const known = new Set(['001-core-tables', '101-log-tables']);

describe('recogniseSource', () => {
  it('tells an empty database, Switchyard, new-api and one-api apart', () => {
    expect(recogniseSource(new Map(), [], known, null).product).toBe('empty');
    const switchyard = schemaOf({ ...legacy, switchyard_migrations: { name: 'varchar' } });
    expect(recogniseSource(switchyard, ['001-core-tables'], known, null)).toMatchObject({
      product: 'switchyard',
      firstAdoption: false,
    });
    const newApi = schemaOf({
      ...legacy,
      users: { ...legacy.users, setting: 'text' },
      channels: { ...legacy.channels, tag: 'text' },
      midjourneys: { id: 'integer' },
    });
    expect(recogniseSource(newApi, [], known, null)).toEqual({
      product: 'new-api',
      version: 'v0.4.8 or later',
      firstAdoption: true,
    });
    expect(recogniseSource(newApi, [], known, 'v0.6.10').version).toBe('v0.6.10');
    const oneApi = schemaOf({
      ...legacy,
      channels: { ...legacy.channels, config: 'text', system_prompt: 'text' },
    });
    expect(recogniseSource(oneApi, [], known, null)).toEqual({
      product: 'one-api',
      version: 'v0.6.x',
      firstAdoption: true,
    });
  });

  it('refuses another product, naming what it found', () => {
    const other = schemaOf({ accounts: { id: 'integer' }, users: { id: 'integer', email: 'text' } });
    expect(() => recogniseSource(other, [], known, null)).toThrow(
      /not one written by new-api, one-api or Switchyard \(found tables accounts, users; missing users\.username/,
    );
  });

  it('refuses a database a newer Switchyard migrated', () => {
    const newer = schemaOf({ ...legacy, switchyard_migrations: { name: 'varchar' } });
    expect(() => recogniseSource(newer, ['001-core-tables', '010-future'], known, null)).toThrow(
      /newer Switchyard \(migrations 010-future/,
    );
  });
});

describe('column types', () => {
  it('accepts each database spelling of numbers, text and GORM datetimes in deleted_at', () => {
    expect(
      ['bigint', 'int', 'numeric', 'boolean', 'tinyint(1)', 'double precision', 'decimal'].map(classifyType),
    ).toEqual(Array(7).fill('number'));
    expect(
      ['text', 'longtext', 'varchar(191)', 'character varying', 'json', 'char(48)'].map(classifyType),
    ).toEqual(Array(6).fill('text'));
    const gorm = schemaOf({ users: { deleted_at: 'timestamp with time zone', quota: 'bigint' } });
    expect(incompatibleColumns(gorm, mainTableColumns)).toEqual([]);
  });

  it('names columns of a type Switchyard cannot use', () => {
    const newer = schemaOf({ users: { quota: 'text', setting: 'jsonb' }, tokens: { key: 'bigint' } });
    expect(incompatibleColumns(newer, mainTableColumns)).toEqual([
      'users.quota is text',
      'tokens.key is bigint',
    ]);
  });
});
