import type { LogPage, LogStat } from '@switchyard/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient, type QueryValue } from '../../../lib/api-client';
import { type LogFilters, logKeys } from './log-keys';

export interface LogListQuery extends LogFilters {
  page: number;
  pageSize: number;
}

/** The query string of the list and stat routes; admin-only filters are sent only by admins. */
export function filterParams(filters: LogFilters, admin: boolean): Record<string, QueryValue> {
  const params: Record<string, QueryValue> = {
    type: filters.type,
    token_name: filters.tokenName.trim(),
    model_name: filters.modelName.trim(),
    group: filters.group.trim(),
    start_timestamp: filters.start || '',
    end_timestamp: filters.end || '',
  };
  if (admin) {
    params.username = filters.username.trim();
    params.channel = filters.channel.trim();
  }
  return params;
}

/**
 * GET /api/log/ (admin, every row) or GET /api/log/self/ (own rows) → {items, page, page_size,
 * total, total_capped}.
 */
export function getLogs(query: LogListQuery, admin: boolean, signal?: AbortSignal): Promise<LogPage> {
  const requestId = query.requestId.trim();
  return apiClient.get<LogPage>(admin ? '/api/log/' : '/api/log/self/', {
    query: {
      ...filterParams(query, admin),
      ...(requestId !== '' && { request_id: requestId }),
      p: query.page,
      page_size: query.pageSize,
    },
    ...(signal ? { signal } : {}),
  });
}

/** GET /api/log/stat (admin) or GET /api/log/self/stat → {quota, rpm, tpm}. */
export function getLogStat(filters: LogFilters, admin: boolean, signal?: AbortSignal): Promise<LogStat> {
  return apiClient.get<LogStat>(admin ? '/api/log/stat' : '/api/log/self/stat', {
    query: filterParams(filters, admin),
    ...(signal ? { signal } : {}),
  });
}

export function useLogsQuery(query: LogListQuery, admin: boolean) {
  return useQuery({
    queryKey: logKeys.list(admin ? 'admin' : 'self', query),
    queryFn: ({ signal }) => getLogs(query, admin, signal),
    placeholderData: keepPreviousData,
  });
}

export function useLogStatQuery(filters: LogFilters, admin: boolean) {
  return useQuery({
    queryKey: logKeys.stat(admin ? 'admin' : 'self', filters),
    queryFn: ({ signal }) => getLogStat(filters, admin, signal),
  });
}
