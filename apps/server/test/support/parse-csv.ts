/**
 * A strict RFC 4180 reader for checking exports: records end with CRLF, quoted fields may hold
 * commas, doubled quotes and line breaks, and anything else (a bare LF ending a record, a quote
 * inside an unquoted field, text after a closing quote, a missing final CRLF) is an error, so a
 * writer that bends the format fails the test instead of being read leniently.
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
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += text[i];
        i++;
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') throw new Error(`quote inside an unquoted field at ${i}`);
        field += text[i];
        i++;
      }
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
