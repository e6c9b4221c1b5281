import { describe, expect, it } from 'vitest';
import { loadConfig } from './env.ts';
import { goMysqlDsnToUrl, sqliteFileFromPath, unusedLegacyVariables } from './legacy-env.ts';

describe('new-api environment forms', () => {
  it('turns Go MySQL DSNs into mysql:// URLs', () => {
    expect(
      goMysqlDsnToUrl('root:123456@tcp(localhost:3306)/oneapi?charset=utf8mb4&parseTime=True&loc=Local'),
    ).toBe('mysql://root:123456@localhost:3306/oneapi');
    expect(goMysqlDsnToUrl('u:p@ss/w:rd@tcp(db:3307)/new-api')).toBe(
      'mysql://u:p%40ss%2Fw%3Ard@db:3307/new-api',
    );
    expect(goMysqlDsnToUrl('root@/oneapi')).toBe('mysql://root@127.0.0.1:3306/oneapi');
    expect(goMysqlDsnToUrl('app:x@unix(/run/mysqld/mysqld.sock)/oneapi')).toBe(
      'mysql://app:x@localhost/oneapi?socketPath=%2Frun%2Fmysqld%2Fmysqld.sock',
    );
    expect(goMysqlDsnToUrl('sqlite.db')).toBeNull();
    expect(goMysqlDsnToUrl('redis://x')).toBeNull();
  });

  it('reads SQL_DSN in every form new-api accepts', () => {
    const go = loadConfig({
      SQL_DSN: 'root:pw@tcp(127.0.0.1:3306)/oneapi?charset=utf8mb4&parseTime=True&loc=Local',
    });
    expect(go.database).toEqual({ kind: 'mysql', location: 'mysql://root:pw@127.0.0.1:3306/oneapi' });
    expect(loadConfig({ SQL_DSN: 'postgresql://u@h/db' }).database.kind).toBe('postgres');
    expect(loadConfig({ SQL_DSN: 'postgres://u@h/db' }).database.kind).toBe('postgres');
    expect(() => loadConfig({ SQL_DSN: 'oracle://x' })).toThrow(/Go's MySQL form/);
  });

  it('drops new-api query suffix from SQLITE_PATH', () => {
    expect(sqliteFileFromPath('one-api.db?_busy_timeout=30000')).toBe('one-api.db');
    expect(loadConfig({ SQLITE_PATH: '/data/one-api.db?_busy_timeout=30000' }).database).toEqual({
      kind: 'sqlite',
      location: '/data/one-api.db',
    });
    expect(loadConfig({}).database.location).toBe('./data/switchyard.db');
  });

  it('names the new-api variables that are set but not read', () => {
    expect(unusedLegacyVariables({ GIN_MODE: 'release', SQL_MAX_OPEN_CONNS: '', PORT: '3000' })).toEqual([
      'GIN_MODE',
    ]);
    expect(loadConfig({ MEMORY_CACHE_ENABLED: 'true' }).unusedLegacyVariables).toEqual([
      'MEMORY_CACHE_ENABLED',
    ]);
  });
});
