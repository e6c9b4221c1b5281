/**
 * A strict RFC 4180 reader for checking exports: records end with CRLF, quoted fields may hold
 * commas, doubled quotes and line breaks, and anything else (a bare CR or LF ending a record, a
 * quote inside an unquoted field, text after a closing quote, a missing final CRLF) is an error,
 * so a writer that bends the format fails the test instead of being read leniently.
 */
export function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        const quote = text.indexOf('"', i);
        if (quote < 0) throw new Error('unterminated quoted field');
        field += text.slice(i, quote);
        if (text[quote + 1] === '"') {
          field += '"';
          i = quote + 2;
          continue;
        }
        i = quote + 1;
        break;
      }
    } else {
      let end = i;
      while (end < text.length) {
        const c = text.charCodeAt(end);
        if (c === 44 || c === 13 || c === 10) break; // , CR LF
        if (c === 34) throw new Error(`quote inside an unquoted field at ${end}`);
        end++;
      }
      field = text.slice(i, end);
      i = end;
    }
    record.push(field);
    if (text[i] === ',') {
      i++;
      continue;
    }
    if (text[i] === '\r' && text[i + 1] === '\n') {
      records.push(record);
      record = [];
      i += 2;
      continue;
    }
    throw new Error(`expected a comma or CRLF at ${i}, found ${JSON.stringify(text.slice(i, i + 10))}`);
  }
  if (record.length > 0) throw new Error('the last record has no CRLF');
  return records;
}

/** Records as objects keyed by the header record. */
export function csvObjects(records: string[][]): Array<Record<string, string>> {
  const [header, ...rows] = records;
  if (!header) return [];
  return rows.map((row) => {
    if (row.length !== header.length)
      throw new Error(`record of ${row.length} fields, header has ${header.length}`);
    return Object.fromEntries(header.map((name, index) => [name, row[index] ?? '']));
  });
}
