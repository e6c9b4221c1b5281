/**
 * The total to give a table for a list the API answers as a bare array of one page, without a
 * count (tokens, channels, drawings, tasks — as the reference does). A full page means there may
 * be more: the total then reaches one page further, so the table offers the next page; a short
 * page is the last one.
 */
export function openEndedTotal(page: number, pageSize: number, count: number): number {
  const seen = (page - 1) * pageSize + count;
  return count >= pageSize ? seen + pageSize : seen;
}
