/** A routine's result code: an integer, else the routine did not answer as it must. */
export function resultCode(value: unknown): number {
  const code = Number(value);
  if (value === undefined || value === null || !Number.isInteger(code)) {
    throw new Error('ledger routine answered without a result');
  }
  return code;
}

/**
 * The `result` column of a routine's answer: a row on PostgreSQL; on MySQL a CALL answers its
 * result sets followed by a status packet, and the first set holds the row.
 */
export function readResult(rows: readonly unknown[]): number {
  return resultCode(resultColumn(rows));
}

/** The answer's `result` column: a PostgreSQL row, or the first row of a MySQL CALL's first set. */
function resultColumn(rows: readonly unknown[]): unknown {
  let first: unknown = rows[0];
  if (Array.isArray(first)) first = first[0];
  return (first as { result?: unknown } | undefined)?.result;
}

/**
 * The codes of a MySQL group call (`switchyard_ledger_group`, mysql-routines.ts): its one row's
 * `result`, the codes comma-separated in call order; exactly `count` of them, else the procedure
 * did not answer as it must.
 */
export function readGroupResult(rows: readonly unknown[], count: number): number[] {
  const text = resultColumn(rows);
  const codes = typeof text === 'string' ? text.split(',').map(resultCode) : [];
  if (codes.length !== count) throw new Error('ledger group answered without a result per call');
  return codes;
}

/**
 * Whether a routine call failed on a lock conflict the database resolved by rolling it back
 * (a deadlock, a lock wait timeout, a serialization failure): it changed nothing and may be sent
 * again. MySQL/MariaDB errno 1213 and 1205; PostgreSQL SQLSTATE 40P01 and 40001.
 */
export function isLockConflict(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { errno, code } = error as { errno?: unknown; code?: unknown };
  return errno === 1213 || errno === 1205 || code === '40P01' || code === '40001';
}
