import { describe, expect, it } from 'vitest';
import { isLockConflict, readGroupResult, readResult } from './routine-result.ts';

describe('readResult', () => {
  it('reads a PostgreSQL row and the first set of a MySQL CALL', () => {
    expect(readResult([{ result: 2 }])).toBe(2);
    expect(readResult([[{ result: '1' }], { affectedRows: 0 }])).toBe(1);
    expect(() => readResult([])).toThrow('ledger routine answered without a result');
  });
});

describe('readGroupResult', () => {
  it('splits a MySQL group call’s codes in call order', () => {
    expect(readGroupResult([[{ result: '0,2,1' }], { affectedRows: 0 }], 3)).toEqual([0, 2, 1]);
    expect(readGroupResult([{ result: '0' }], 1)).toEqual([0]);
  });

  it('refuses an answer without one integer code per call', () => {
    expect(() => readGroupResult([[{ result: '0,1' }]], 3)).toThrow('without a result per call');
    expect(() => readGroupResult([[{ result: null }]], 1)).toThrow('without a result per call');
    expect(() => readGroupResult([[{ result: '0,x' }]], 2)).toThrow(
      'ledger routine answered without a result',
    );
  });
});

describe('isLockConflict', () => {
  it('knows the deadlock and lock-timeout errors of mysql2 and pg, and nothing else', () => {
    expect(isLockConflict({ errno: 1213, code: 'ER_LOCK_DEADLOCK' })).toBe(true);
    expect(isLockConflict({ errno: 1205, code: 'ER_LOCK_WAIT_TIMEOUT' })).toBe(true);
    expect(isLockConflict({ code: '40P01' })).toBe(true);
    expect(isLockConflict({ code: '40001' })).toBe(true);
    expect(isLockConflict({ errno: 1062, code: 'ER_DUP_ENTRY' })).toBe(false);
    expect(isLockConflict({ code: '23505' })).toBe(false);
    expect(isLockConflict(new Error('connection lost'))).toBe(false);
    expect(isLockConflict(null)).toBe(false);
    expect(isLockConflict('40P01')).toBe(false);
  });
});
