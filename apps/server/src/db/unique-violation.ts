/** True when a driver error is a unique-constraint violation (SQLite, PostgreSQL or MySQL). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: unknown; errno?: unknown; message?: unknown } | null;
  if (!e) return false;
  if (e.code === '23505' || e.code === 'ER_DUP_ENTRY' || e.errno === 1062) return true;
  if (e.code === 'SQLITE_CONSTRAINT_UNIQUE' || e.code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return true;
  return (
    typeof e.message === 'string' && /UNIQUE constraint failed|duplicate key|Duplicate entry/i.test(e.message)
  );
}
