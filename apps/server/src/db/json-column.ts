/**
 * A JSON column's value as data, whatever form the driver hands it over in: text (Switchyard's
 * columns), a Buffer (new-api's SQLite `json` columns hold BLOBs) or an already parsed value
 * (mysql2 parses MySQL's JSON type). Empty or unreadable → null.
 */
export function readJsonColumn(value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string' && !Buffer.isBuffer(value)) return value;
  const text = value.toString();
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
