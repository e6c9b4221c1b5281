/** Midjourney submit codes: 1 submitted, 21 waiting, 22 duplicate, 0 not submitted. */
export const MJ_CODES: Record<number, { key: string; color: string }> = {
  1: { key: 'submitted', color: 'green' },
  21: { key: 'waiting', color: 'lime' },
  22: { key: 'duplicate', color: 'orange' },
  0: { key: 'notSubmitted', color: 'yellow' },
};

/** Task status colours (drawing and async tasks; '' means still submitting). */
export const STATUS_COLORS: Record<string, string> = {
  SUCCESS: 'green',
  NOT_START: 'default',
  SUBMITTED: 'gold',
  QUEUED: 'cyan',
  IN_PROGRESS: 'blue',
  FAILURE: 'red',
  MODAL: 'orange',
  UNKNOWN: 'default',
  '': 'default',
};

export const statusKey = (status: string): string => (status === '' ? 'SUBMITTING' : status);

/**
 * Seconds between submit and finish, or null while unfinished. `unit` is the unit of both times
 * (drawing tasks store milliseconds, async tasks seconds).
 */
export function taskDuration(submit: number, finish: number, unit: 'ms' | 's'): number | null {
  if (!submit || !finish || finish < submit) return null;
  const seconds = unit === 'ms' ? (finish - submit) / 1000 : finish - submit;
  return Math.round(seconds * 10) / 10;
}

/** Task durations over 60 s are red. */
export const durationColor = (seconds: number): string => (seconds > 60 ? 'red' : 'green');

/** "45%" → 45 (clamped to 0..100; unreadable → 0). */
export function progressPercent(progress: string): number {
  const value = Number.parseFloat(progress);
  if (!Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, value));
}
