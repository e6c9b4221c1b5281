/**
 * The header shows a 'Happy New Year!!!' item on New Year's Day only: January 1st in the
 * visitor's local time zone (the original console's condition).
 */
export function isNewYearsDay(date: Date = new Date()): boolean {
  return date.getMonth() === 0 && date.getDate() === 1;
}
