/**
 * CSV cells and lines as RFC 4180 writes them, for spreadsheets and scripts alike.
 *
 * - A field is quoted when it holds a comma, a double quote, CR or LF, or starts or ends with
 *   whitespace (some readers trim unquoted fields); quotes inside are doubled.
 * - null and undefined are empty fields; numbers and booleans are written as JavaScript prints
 *   them and are never altered.
 * - Text that a spreadsheet would run as a formula (first non-blank character `=`, `+`, `-` or
 *   `@`, or a leading tab or CR) gets a leading apostrophe: Excel, LibreOffice and Google Sheets
 *   show the text as written and do not evaluate it. Log text (token names, models, content)
 *   is written by users, so an export must never turn it into a formula on an admin's machine.
 *   The apostrophe stays in the file: scripts reading the CSV see `'=…` for such cells.
 * - Text is kept as it is (CJK, emoji and other surrogate pairs included); a lone surrogate,
 *   which no UTF-8 text can hold, becomes U+FFFD when the line is encoded.
 */

/** One cell's value: text from users, or a number or flag the gateway wrote. */
export type CsvValue = string | number | boolean | null | undefined;

/** Lines end with CRLF, as RFC 4180 says and Excel expects. */
export const CSV_LINE_END = '\r\n';

/** The UTF-8 byte order mark: without it Excel reads the file in the system's code page. */
export const UTF8_BOM = '\uFEFF';

const FORMULA_START = /^[\s]*[=+\-@]|^[\t\r]/;
const NEEDS_QUOTES = /[",\r\n]|^\s|\s$/;

/** Text as a spreadsheet shows it without running it. */
export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** One field, escaped (and quoted when needed). */
export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') return String(value);
  const text = neutraliseFormula(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record: the fields joined by commas, ended by CRLF. */
export function csvLine(values: readonly CsvValue[]): string {
  let line = '';
  for (let i = 0; i < values.length; i++) {
    if (i > 0) line += ',';
    line += csvCell(values[i]);
  }
  return line + CSV_LINE_END;
}
