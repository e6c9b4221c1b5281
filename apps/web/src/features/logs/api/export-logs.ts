import dayjs from 'dayjs';
import { buildUrl } from '../../../lib/api-client';
import { filterParams } from './get-logs';
import type { LogFilters } from './log-keys';

/**
 * GET /api/log/export (admin): every row of the current filters as a CSV file. The browser
 * follows this address itself, so it writes the stream to disk instead of holding it in a page;
 * the session cookie authenticates it, and `new_api_user` stands in for the header a link cannot
 * send. `utc_offset` is the browser's, for the file's readable time column.
 */
export function logExportUrl(filters: LogFilters, userId: number, now = dayjs()): string {
  return buildUrl('/api/log/export', {
    ...filterParams(filters, true),
    utc_offset: now.utcOffset(),
    new_api_user: userId,
  });
}
