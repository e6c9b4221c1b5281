import { describe, expect, it } from 'vitest';
import type { LogRow } from '../../../db/repositories/log-repository.ts';
import {
  formatLocalTime,
  formatUtcOffset,
  LOG_CSV_COLUMNS,
  logCsvHeader,
  logCsvRecord,
  requestIdOf,
} from './log-csv-columns.ts';

const row: LogRow = {
  id: 7,
  user_id: 2,
  created_at: 1_700_000_000,
  type: 2,
  content: null,
  username: 'alice',
  token_name: 't',
  model_name: 'gpt-4o',
  quota: 150,
  prompt_tokens: 10,
  completion_tokens: 5,
  use_time: 2,
  is_stream: 1,
  channel_id: 3,
  token_id: 4,
  group: 'default',
  ip: '10.0.0.1',
  other: null,
};

describe('log CSV columns', () => {
  it('names the offset of the readable time in the header', () => {
    expect(formatUtcOffset(0)).toBe('+00:00');
    expect(formatUtcOffset(480)).toBe('+08:00');
    expect(formatUtcOffset(-210)).toBe('-03:30');
    expect(formatUtcOffset(840)).toBe('+14:00');
    expect(logCsvHeader(345)[2]).toBe('time (UTC+05:45)');
    expect(logCsvHeader(0)).toHaveLength(LOG_CSV_COLUMNS.length);
  });

  it('writes the time at the offset, across a date line', () => {
    expect(formatLocalTime(1_700_000_000, 0)).toBe('2023-11-14 22:13:20');
    expect(formatLocalTime(1_700_000_000, 480)).toBe('2023-11-15 06:13:20');
    expect(formatLocalTime(0, -720)).toBe('1969-12-31 12:00:00');
  });

  it('reads the request id only from a JSON object that has one', () => {
    expect(requestIdOf('{"request_id":"20261207161340abc","x":1}')).toBe('20261207161340abc');
    expect(requestIdOf('{"note":"request_id"}')).toBe('');
    expect(requestIdOf('{"request_id":12}')).toBe('');
    expect(requestIdOf('not json "request_id"')).toBe('');
    expect(requestIdOf('null')).toBe('');
    expect(requestIdOf(null)).toBe('');
    expect(requestIdOf('')).toBe('');
  });

  it('writes types as words, null text as empty and the stream flag as true/false', () => {
    const record = logCsvRecord(row, 'main', 0);
    expect(record).toHaveLength(LOG_CSV_COLUMNS.length);
    const field = (name: (typeof LOG_CSV_COLUMNS)[number]) => record[LOG_CSV_COLUMNS.indexOf(name)];
    expect(field('type')).toBe('consume');
    expect(field('channel_name')).toBe('main');
    expect(field('is_stream')).toBe(true);
    expect(field('content')).toBe('');
    expect(field('other')).toBe('');
    expect(logCsvRecord({ ...row, type: 0 }, '', 0)[3]).toBe('unknown');
    expect(logCsvRecord({ ...row, type: 1 }, '', 0)[3]).toBe('topup');
    expect(logCsvRecord({ ...row, type: 5 }, '', 0)[3]).toBe('error');
    expect(logCsvRecord({ ...row, type: 42 }, '', 0)[3]).toBe('42');
  });
});
