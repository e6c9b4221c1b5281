import { describe, expect, it } from 'vitest';
import type { NewLog } from '../../../db/repositories/log-repository.ts';
import { LOG_COLUMNS, logValues } from '../../settlement/log-values.ts';
import {
  callProcedureQuery,
  deleteReservationsQuery,
  ledgerGroupQuery,
  lockSettledQuery,
} from '../mysql/mysql-ledger.ts';
import { deleteSettledReturningQuery, selectFunctionsQuery } from '../postgres/postgres-ledger.ts';
import { logInsertQuery, placeholders } from './compiled-statements.ts';

const log = (quota: number) => ({ type: 2, user_id: 7, username: 'alice', quota }) as NewLog;

describe('placeholders', () => {
  it('numbers PostgreSQL parameters from where they start and marks MySQL ones with ?', () => {
    expect(placeholders('postgres', 4, 3)).toBe('$4, $5, $6');
    expect(placeholders('mysql', 4, 3)).toBe('?, ?, ?');
    expect(placeholders('postgres', 1, 0)).toBe('');
  });
});

describe('logInsertQuery', () => {
  it('inserts every logs column, one tuple per row, values in column order with defaults filled in', () => {
    const query = logInsertQuery('postgres', [
      { log: log(5), at: 100 },
      { log: log(9), at: 200 },
    ]);
    const width = LOG_COLUMNS.length;
    expect(query.sql.startsWith('INSERT INTO logs ("user_id", "created_at", "type"')).toBe(true);
    expect(query.sql).toContain('"group"');
    expect(query.sql).toContain(`($1, $2,`);
    expect(query.sql).toContain(`($${width + 1}, `);
    expect(query.sql.endsWith(`$${2 * width})`)).toBe(true);
    expect(query.parameters).toEqual([...logValues(log(5), 100), ...logValues(log(9), 200)]);
    expect(query.parameters[1]).toBe(100);
    expect(query.parameters[width + 7]).toBe(9);
  });

  it('quotes the reserved column name with backticks on MySQL', () => {
    const query = logInsertQuery('mysql', [{ log: log(1), at: 1 }]);
    expect(query.sql).toContain('`group`');
    expect(query.sql).not.toContain('"group"');
    expect(query.sql.match(/\?/g)).toHaveLength(LOG_COLUMNS.length);
  });

  it('reuses the text of a row count and never carries values in it', () => {
    const first = logInsertQuery('postgres', [{ log: { ...log(1), username: "o'brien" }, at: 1 }]);
    const second = logInsertQuery('postgres', [{ log: log(2), at: 2 }]);
    expect(second.sql).toBe(first.sql);
    expect(first.sql).not.toContain('brien');
    expect(first.parameters).toContain("o'brien");
  });

  it('builds a text for more rows than it keeps, the same way', () => {
    const rows = Array.from({ length: 600 }, (_, index) => ({ log: log(index), at: index }));
    const query = logInsertQuery('mysql', rows);
    expect(query.sql.match(/\?/g)).toHaveLength(600 * LOG_COLUMNS.length);
    expect(query.parameters).toHaveLength(600 * LOG_COLUMNS.length);
  });
});

describe('ledger claim statements', () => {
  it('deletes only settled rows among the ids on PostgreSQL and returns their ids', () => {
    const query = deleteSettledReturningQuery(['a', 'b']);
    expect(query.sql).toBe(
      "DELETE FROM reservations WHERE state = 'settled' AND id IN ($1, $2) RETURNING id",
    );
    expect(query.parameters).toEqual(['a', 'b']);
  });

  it('locks the settled rows, then deletes the locked ids, on MySQL', () => {
    expect(lockSettledQuery(['a']).sql).toBe(
      "SELECT id FROM reservations FORCE INDEX (PRIMARY) WHERE state = 'settled' AND id IN (?) FOR UPDATE",
    );
    const remove = deleteReservationsQuery(['a', 'b', 'c']);
    expect(remove.sql).toBe('DELETE FROM reservations WHERE id IN (?, ?, ?)');
    expect(remove.parameters).toEqual(['a', 'b', 'c']);
  });
});

describe('routine calls', () => {
  it('calls one MySQL procedure per statement', () => {
    const query = callProcedureQuery({ name: 'switchyard_refund', args: ['id', 1, 2, 1, 50] });
    expect(query.sql).toBe('CALL switchyard_refund(?, ?, ?, ?, ?)');
    expect(query.parameters).toEqual(['id', 1, 2, 1, 50]);
  });

  it('selects one PostgreSQL function as result, or several as r0, r1… with running parameter numbers', () => {
    expect(selectFunctionsQuery([{ name: 'switchyard_refund', args: ['x', 1] }]).sql).toBe(
      'SELECT switchyard_refund($1, $2) AS result',
    );
    const group = selectFunctionsQuery([
      { name: 'switchyard_reserve', args: ['a', 'r', 3] },
      { name: 'switchyard_settle', args: ['b', 4] },
    ]);
    expect(group.sql).toBe('SELECT switchyard_reserve($1, $2, $3) AS r0, switchyard_settle($4, $5) AS r1');
    expect(group.parameters).toEqual(['a', 'r', 3, 'b', 4]);
  });

  it('sends MySQL groups as one CALL with the calls as a JSON array of [kind, …args]', () => {
    const query = ledgerGroupQuery([
      { name: 'switchyard_reserve', args: ['a', 'req', 1, 2, 1, 300, 1_700_000_000_000, 'node'] },
      { name: 'switchyard_settle', args: ['b', 1, 2, 1, 300, 250, 4, '{"log":"模型 \\"x\\""}'] },
      { name: 'switchyard_refund', args: ['c', 1, 2, 0, 90] },
    ]);
    expect(query.sql).toBe('CALL switchyard_ledger_group(?)');
    expect(JSON.parse(query.parameters[0] as string)).toEqual([
      ['reserve', 'a', 'req', 1, 2, 1, 300, 1_700_000_000_000, 'node'],
      ['settle', 'b', 1, 2, 1, 300, 250, 4, '{"log":"模型 \\"x\\""}'],
      ['refund', 'c', 1, 2, 0, 90],
    ]);
  });
});
