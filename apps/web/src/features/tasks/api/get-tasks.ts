import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiClient, type QueryValue } from '../../../lib/api-client';
import { openEndedTotal } from '../../../lib/open-ended-page';
import type { AsyncTask, MidjourneyTask, TaskListQuery, TaskPage } from './task-types';

/**
 * These lists answer one page as a bare array, as the reference does; the table's total comes
 * from openEndedTotal (a full page offers the next one).
 */
export function toTaskPage<T>(data: T[] | null, query: TaskListQuery): TaskPage<T> {
  const items = data ?? [];
  return { items, total: openEndedTotal(query.page, query.pageSize, items.length) };
}

const ms = (seconds: number) => (seconds ? seconds * 1000 : '');

/** `p` counts from 0 on these routes (as in the reference); page_size is sent as well. */
function paging(query: TaskListQuery): Record<string, QueryValue> {
  return { p: query.page - 1, page_size: query.pageSize };
}

/**
 * GET /api/mj/ (admin, with channel_id) or GET /api/mj/self/ with mj_id and start/end. Drawing
 * times are milliseconds, so the bounds are sent in milliseconds.
 */
export async function getMidjourneyTasks(query: TaskListQuery, admin: boolean, signal?: AbortSignal) {
  const data = await apiClient.get<MidjourneyTask[] | null>(admin ? '/api/mj/' : '/api/mj/self/', {
    query: {
      ...paging(query),
      mj_id: query.id.trim(),
      start_timestamp: ms(query.start),
      end_timestamp: ms(query.end),
      ...(admin ? { channel_id: query.channelId.trim() } : {}),
    },
    ...(signal ? { signal } : {}),
  });
  return toTaskPage(data, query);
}

/** GET /api/task/ (admin, with channel_id) or GET /api/task/self with task_id and start/end (seconds). */
export async function getAsyncTasks(query: TaskListQuery, admin: boolean, signal?: AbortSignal) {
  const data = await apiClient.get<AsyncTask[] | null>(admin ? '/api/task/' : '/api/task/self', {
    query: {
      ...paging(query),
      task_id: query.id.trim(),
      start_timestamp: query.start || '',
      end_timestamp: query.end || '',
      ...(admin ? { channel_id: query.channelId.trim() } : {}),
    },
    ...(signal ? { signal } : {}),
  });
  return toTaskPage(data, query);
}

export function useMidjourneyTasksQuery(query: TaskListQuery, admin: boolean) {
  return useQuery({
    queryKey: ['tasks', 'mj', admin, query],
    queryFn: ({ signal }) => getMidjourneyTasks(query, admin, signal),
    placeholderData: keepPreviousData,
  });
}

export function useAsyncTasksQuery(query: TaskListQuery, admin: boolean) {
  return useQuery({
    queryKey: ['tasks', 'task', admin, query],
    queryFn: ({ signal }) => getAsyncTasks(query, admin, signal),
    placeholderData: keepPreviousData,
  });
}
