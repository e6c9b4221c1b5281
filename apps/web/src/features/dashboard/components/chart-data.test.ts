import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { buildDashboardData, slotOf, toGranularity } from './chart-data';

const at = (text: string) => dayjs(text).unix();
const bucket = (model: string, time: string, count: number, quota: number) => ({
  model_name: model,
  created_at: at(time),
  count,
  quota,
  token_used: count * 10,
});

describe('dashboard chart data', () => {
  const buckets = [
    bucket('gpt-4o', '2025-03-03T10:00:00', 2, 100),
    bucket('gpt-4o-mini', '2025-03-03T10:00:00', 5, 50),
    bucket('gpt-4o', '2025-03-03T11:00:00', 1, 300),
    bucket('gpt-4o-mini', '2025-03-04T09:00:00', 1, 10),
  ];

  it('sums the totals and orders models by quota', () => {
    const data = buildDashboardData(buckets, 'hour');
    expect(data.totals).toEqual({ quota: 460, count: 9, tokens: 90 });
    expect(data.models).toEqual(['gpt-4o', 'gpt-4o-mini']);
    expect(data.countByModel).toEqual([
      { model: 'gpt-4o', count: 3 },
      { model: 'gpt-4o-mini', count: 6 },
    ]);
  });

  it('keeps hourly slots, with 0 for models absent from a slot', () => {
    const data = buildDashboardData(buckets, 'hour');
    expect(data.quotaSeries).toEqual([
      { time: '03-03 10:00', 'gpt-4o': 100, 'gpt-4o-mini': 50 },
      { time: '03-03 11:00', 'gpt-4o': 300, 'gpt-4o-mini': 0 },
      { time: '03-04 09:00', 'gpt-4o': 0, 'gpt-4o-mini': 10 },
    ]);
  });

  it('sums by day and by week (weeks start on Monday)', () => {
    expect(buildDashboardData(buckets, 'day').countSeries).toEqual([
      { time: '2025-03-03', 'gpt-4o': 3, 'gpt-4o-mini': 5 },
      { time: '2025-03-04', 'gpt-4o': 0, 'gpt-4o-mini': 1 },
    ]);
    // 2025-03-09 is a Sunday: same week as Monday 03-03.
    expect(slotOf(at('2025-03-09T23:00:00'), 'week')).toBe(at('2025-03-03T00:00:00'));
    expect(buildDashboardData(buckets, 'week').quotaSeries).toEqual([
      { time: '2025-03-03', 'gpt-4o': 400, 'gpt-4o-mini': 60 },
    ]);
  });

  it('reads the default granularity option', () => {
    expect(toGranularity('day')).toBe('day');
    expect(toGranularity('week')).toBe('week');
    expect(toGranularity(undefined)).toBe('hour');
    expect(toGranularity('month')).toBe('hour');
  });
});
