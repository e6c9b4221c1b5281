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
  let first: unknown = rows[0];
  if (Array.isArray(first)) first = first[0];
  return resultCode((first as { result?: unknown } | undefined)?.result);
}
