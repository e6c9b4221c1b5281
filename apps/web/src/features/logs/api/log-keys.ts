import type { LogListQuery } from './get-logs';

/** Query keys of the logs feature. */
export const logKeys = {
  all: ['logs'] as const,
  list: (scope: 'admin' | 'self', query: LogListQuery) => [...logKeys.all, scope, 'list', query] as const,
  stat: (scope: 'admin' | 'self', filters: LogFilters) => [...logKeys.all, scope, 'stat', filters] as const,
  userInfo: (id: number) => [...logKeys.all, 'user', id] as const,
};

/** The log filters of the page (times in Unix seconds; 0 = no bound). */
export interface LogFilters {
  type: number;
  tokenName: string;
  modelName: string;
  group: string;
  start: number;
  end: number;
  /** Admin only. */
  username: string;
  /** Admin only: a channel id as typed ('' = any). */
  channel: string;
  /** A request id ('' = any); lists only (the stat routes have no such filter). */
  requestId: string;
}
