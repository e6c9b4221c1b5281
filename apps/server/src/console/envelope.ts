import { queryInteger } from '@switchyard/shared';

/** The console API's success envelope. Errors take the same shape through the error handler. */
export function ok<T>(data?: T, message = ''): { success: true; message: string; data: T | null } {
  return { success: true, message, data: data === undefined ? null : data };
}

/** Highest page number read; beyond it the offset could overflow the databases' integer types. */
export const MAX_PAGE = 1_000_000;

/**
 * Page and size as the reference reads them: `p` from `base` (clamped to base..MAX_PAGE) and a
 * size of 1..100, 10 by default. Values come from QueryInteger schemas: text that is not an
 * integer counts as 0, as strconv.Atoi in the reference.
 */
export function readPaging(
  query: { p?: number | string; page_size?: number | string; size?: number | string },
  { base = 1, sizeKey = 'page_size' }: { base?: 0 | 1; sizeKey?: 'page_size' | 'size' } = {},
): { page: number; pageSize: number; offset: number } {
  let page = query.p === undefined ? base : queryInteger(query.p);
  if (page < base) page = base;
  if (page > MAX_PAGE) page = MAX_PAGE;
  let pageSize = queryInteger(query[sizeKey]);
  if (pageSize <= 0) pageSize = 10;
  if (pageSize > 100) pageSize = 100;
  return { page, pageSize, offset: (page - base) * pageSize };
}
