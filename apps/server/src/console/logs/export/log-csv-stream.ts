import { Readable } from 'node:stream';
import { cursorAfter, type LogKeysetReader } from '../../../db/repositories/log-keyset-reader.ts';
import type { LogFilter, LogRow } from '../../../db/repositories/log-repository.ts';
import { csvLine, UTF8_BOM } from './csv-cell.ts';
import { logCsvHeader, logCsvRecord } from './log-csv-columns.ts';

/** Rows read per query: one batch's rows and text are what an export holds in memory. */
export const LOG_EXPORT_BATCH_ROWS = 1000;

/**
 * Bytes the stream buffers ahead of the client before it stops reading. Below one batch's text,
 * so the next query runs only once the client has taken (nearly) everything before it.
 */
const READ_AHEAD_BYTES = 64 * 1024;

export interface LogCsvSource {
  reader: Pick<LogKeysetReader, 'batch'>;
  /** id → name of the given channel ids (ids it does not answer count as deleted: ''). */
  channelNames(ids: number[]): Promise<Map<number, string>>;
}

export interface LogCsvOptions {
  /** Resolved as the list resolves it (resolveLogFilter); null = matches nothing (a header only). */
  filter: LogFilter | null;
  utcOffsetMinutes: number;
  batchRows?: number;
  /** Called after each batch is read, with its row count. */
  onBatch?(rows: number): void;
}

/** Channel names read once per export: each id is asked for at most once. */
class ChannelNameCache {
  private readonly names = new Map<number, string>();
  constructor(private readonly source: LogCsvSource) {}

  async load(rows: LogRow[]): Promise<void> {
    const missing = new Set<number>();
    for (const row of rows) {
      const id = Number(row.channel_id);
      if (id > 0 && !this.names.has(id)) missing.add(id);
    }
    if (missing.size === 0) return;
    const found = await this.source.channelNames([...missing]);
    for (const id of missing) this.names.set(id, found.get(id) ?? '');
  }

  nameOf(row: LogRow): string {
    return this.names.get(Number(row.channel_id)) ?? '';
  }
}

/**
 * The filtered log list as CSV (UTF-8 with a byte order mark, a header record, then the rows in
 * the list's order), read in keyset batches as the consumer takes the text: memory stays at one
 * batch whatever the row count. The first batch is read before this resolves, so a failing query
 * can still be answered as an error; later failures destroy the stream (the download fails).
 * Destroying the stream (the client went away) stops the reading after the batch in flight.
 */
export async function openLogCsv(source: LogCsvSource, options: LogCsvOptions): Promise<Readable> {
  const { filter, utcOffsetMinutes, onBatch } = options;
  const batchRows = options.batchRows ?? LOG_EXPORT_BATCH_ROWS;
  const names = new ChannelNameCache(source);

  const read = async (after: LogRow | null): Promise<LogRow[]> => {
    const rows = filter
      ? await source.reader.batch(filter, after ? cursorAfter(after) : null, batchRows)
      : [];
    onBatch?.(rows.length);
    await names.load(rows);
    return rows;
  };
  const render = (rows: LogRow[]): string => {
    let text = '';
    for (const row of rows) text += csvLine(logCsvRecord(row, names.nameOf(row), utcOffsetMinutes));
    return text;
  };

  async function* chunks(first: LogRow[]): AsyncGenerator<Buffer> {
    let rows = first;
    yield Buffer.from(UTF8_BOM + csvLine(logCsvHeader(utcOffsetMinutes)) + render(rows), 'utf8');
    while (rows.length === batchRows) {
      rows = await read(rows[rows.length - 1] ?? null);
      if (rows.length === 0) return;
      yield Buffer.from(render(rows), 'utf8');
    }
  }
  return Readable.from(chunks(await read(null)), { objectMode: false, highWaterMark: READ_AHEAD_BYTES });
}
