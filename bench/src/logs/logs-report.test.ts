import { describe, expect, it } from 'vitest';
import type { MachineInfo } from '../machine-info.ts';
import { logQueryString } from './console-queries.ts';
import { type LogsBenchResult, renderLogsReport, verdict } from './logs-report.ts';
import type { QueryTiming } from './measure-queries.ts';

const machine: MachineInfo = {
  date: '2026-01-01T00:00:00.000Z',
  cpuModel: 'Test CPU',
  cores: 2,
  memoryGiB: 8,
  kernel: '6.1',
  node: 'v22.0.0',
  fileDescriptorLimit: '1024',
  versions: {},
  commit: 'abc1234',
};

const timing = (name: string, p95Ms: number, extra: Partial<QueryTiming> = {}): QueryTiming => ({
  kind: 'list',
  name,
  path: '/api/log/',
  samples: 30,
  p50Ms: p95Ms / 2,
  p95Ms,
  rows: 10_000,
  ...extra,
});

const result = (label: string, timings: QueryTiming[]): LogsBenchResult => ({
  database: 'sqlite',
  label,
  rows: 10_000_000,
  machine,
  fill: { seconds: 600, indexSeconds: 120, sizeBytes: 5 * 2 ** 30 },
  load: { loadAverage: [1.5, 2.5], otherCpuPercent: 40 },
  measuredAt: '2026-01-01T00:00:00.000Z',
  timings,
});

describe('logs report', () => {
  it('judges p95 against 300 ms and reports errors', () => {
    expect(verdict(timing('a', 300))).toBe('ok');
    expect(verdict(timing('a', 301))).toBe('SLOW');
    expect(verdict(timing('a', Number.NaN, { error: 'HTTP 500: boom' }))).toBe('error: HTTP 500: boom');
  });

  it('renders each database with the machine, the load and the baseline beside the current figures', () => {
    const page = renderLogsReport([
      result('before', [timing('admin list: no filter', 2000)]),
      result('current', [timing('admin list: no filter', 40, { capped: true }), timing('new query', 10)]),
    ]);
    expect(page).toContain('# Logs at scale');
    expect(page).toContain('## SQLite: 10,000,000 rows');
    expect(page).toContain('Test CPU, 2 cores');
    expect(page).toContain('Load average 1.50 → 2.50');
    expect(page).toContain('2 of 2 queries at p95 ≤ 300 ms');
    const row = page.split('\n').find((line) => line.startsWith('| admin list: no filter'));
    expect(row?.split('|').map((cell) => cell.trim())).toEqual([
      '',
      'admin list: no filter',
      '10,000+',
      '30',
      '20',
      '40',
      'ok',
      '1000',
      '2000',
      '',
    ]);
    const fresh = page.split('\n').find((line) => line.startsWith('| new query'));
    expect(fresh).toMatch(/\| +– \| +– \|$/);
  });

  it('builds the log query string with every key, as the console sends it', () => {
    expect(logQueryString({ username: 'a b', range: [1, 2] }, true, true)).toBe(
      'p=1&page_size=10&type=0&username=a%20b&token_name=&model_name=&start_timestamp=1&end_timestamp=2&channel=&group=',
    );
    expect(logQueryString({ type: 5, range: null }, false, false)).toBe(
      'type=5&token_name=&model_name=&start_timestamp=&end_timestamp=&group=',
    );
  });
});
