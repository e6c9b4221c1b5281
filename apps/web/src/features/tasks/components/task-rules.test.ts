import { describe, expect, it } from 'vitest';
import { toTaskPage } from '../api/get-tasks';
import { durationColor, MJ_CODES, progressPercent, statusKey, taskDuration } from './task-rules';

describe('task rules', () => {
  it('measures durations in the unit of the row', () => {
    expect(taskDuration(1_000_000, 1_061_500, 'ms')).toBe(61.5);
    expect(taskDuration(100, 130, 's')).toBe(30);
    expect(taskDuration(100, 0, 's')).toBeNull();
    expect(taskDuration(0, 100, 's')).toBeNull();
  });

  it('colours durations over 60 s red', () => {
    expect(durationColor(60)).toBe('green');
    expect(durationColor(60.1)).toBe('red');
  });

  it('reads progress and labels codes and statuses', () => {
    expect(progressPercent('45%')).toBe(45);
    expect(progressPercent('')).toBe(0);
    expect(progressPercent('120%')).toBe(100);
    expect(MJ_CODES[22]?.key).toBe('duplicate');
    expect(statusKey('')).toBe('SUBMITTING');
    expect(statusKey('FAILURE')).toBe('FAILURE');
  });

  it('pages a bare array: a full page offers the next one', () => {
    const query = { id: '', channelId: '', start: 0, end: 0, page: 2, pageSize: 2 };
    expect(toTaskPage([1, 2], query)).toEqual({ items: [1, 2], total: 6 });
    expect(toTaskPage([1], query)).toEqual({ items: [1], total: 3 });
    expect(toTaskPage(null, query)).toEqual({ items: [], total: 2 });
  });
});
