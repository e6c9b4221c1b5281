/**
 * The console requests measured, as new-api's console (and ours) sends them: the log list's query
 * string always carries every filter, empty when unset, and a time range (the console's default
 * is today, from local midnight to an hour from now).
 */
import type { World } from './log-world.ts';

export type Caller = 'admin' | 'heavy-user' | 'median-user' | 'token-key';

export interface ConsoleQuery {
  /** Section of the report: lists, stats, dashboard, usage figures, search. */
  kind: 'list' | 'stat' | 'dashboard' | 'usage' | 'search';
  name: string;
  path: string;
  caller: Caller;
}

export interface TimeRanges {
  today: [number, number];
  /** The last 24 hours (the dashboard's "hour" preset). */
  day: [number, number];
  week: [number, number];
  /** The last 30 days (the dashboard's "week" preset, and the longest span `/api/data/self` accepts). */
  month: [number, number];
  all: [number, number];
}

/**
 * Today (from local midnight), the last day, 7 days, 30 days and 90 days, each ending an hour from
 * now. The dashboard opens on the last day (hours), 7 days (days) or 30 days (weeks), after its
 * granularity.
 */
export function timeRanges(now: Date): TimeRanges {
  const end = Math.floor(now.getTime() / 1000) + 3600;
  const midnight = new Date(now);
  midnight.setHours(0, 0, 0, 0);
  const nowSeconds = Math.floor(now.getTime() / 1000);
  return {
    today: [Math.floor(midnight.getTime() / 1000), end],
    day: [nowSeconds - 86400, end],
    week: [nowSeconds - 7 * 86400, end],
    month: [nowSeconds - 30 * 86400 + 3600, end],
    all: [nowSeconds - 90 * 86400, end],
  };
}

interface ListFilters {
  type?: number;
  username?: string;
  token_name?: string;
  model_name?: string;
  channel?: number;
  group?: string;
  range?: [number, number] | null;
  page?: number;
}

/** A log list or stat query string with every key present, as LogsTable.js builds it. */
export function logQueryString(filters: ListFilters, admin: boolean, withPaging: boolean): string {
  const [start, end] = filters.range ?? ['', ''];
  const parts: Array<[string, string | number]> = [];
  if (withPaging) parts.push(['p', filters.page ?? 1], ['page_size', 10]);
  parts.push(['type', filters.type ?? 0]);
  if (admin) parts.push(['username', filters.username ?? '']);
  parts.push(['token_name', filters.token_name ?? ''], ['model_name', filters.model_name ?? '']);
  parts.push(['start_timestamp', start], ['end_timestamp', end]);
  if (admin) parts.push(['channel', filters.channel ?? '']);
  parts.push(['group', filters.group ?? '']);
  return parts.map(([key, value]) => `${key}=${encodeURIComponent(String(value))}`).join('&');
}

/** Who the filters name: the heaviest user and a median one, their busiest token, a popular and a rare model. */
export interface Subjects {
  heavyUser: { id: number; username: string; tokenName: string };
  medianUser: { id: number; username: string };
  popularModel: string;
  rareModel: string;
  /** A request id of a row about a month old (found after the fill). */
  requestId: string;
  tokenKey: string;
}

export function subjectsOf(world: World, requestId: string): Subjects {
  const heavy = world.users[0]!;
  const median = world.users[Math.floor(world.users.length / 2)]!;
  const heavyToken = world.tokens[heavy.tokens[0]!]!;
  return {
    heavyUser: {
      id: heavy.id,
      username: heavy.username,
      tokenName: world.tokens[heavy.tokens[1] ?? heavy.tokens[0]!]!.name,
    },
    medianUser: { id: median.id, username: median.username },
    popularModel: world.models[0]!.name,
    rareModel: world.models[world.models.length - 1]!.name,
    requestId,
    tokenKey: `sk-${heavyToken.key}`,
  };
}

export function consoleQueries(s: Subjects, ranges: TimeRanges): ConsoleQuery[] {
  const admin = (filters: ListFilters) => `/api/log/?${logQueryString(filters, true, true)}`;
  const self = (filters: ListFilters) => `/api/log/self/?${logQueryString(filters, false, true)}`;
  const adminStat = (filters: ListFilters) => `/api/log/stat?${logQueryString(filters, true, false)}`;
  const selfStat = (filters: ListFilters) => `/api/log/self/stat?${logQueryString(filters, false, false)}`;
  const filterCases: Array<[string, ListFilters]> = [
    ['no filter, today', { range: ranges.today }],
    ['no filter, 7 days', { range: ranges.week }],
    ['no filter, 90 days', { range: ranges.all }],
    ['no filter, no time range', { range: null }],
    ['no filter, today, page 50', { range: ranges.today, page: 50 }],
    [
      `username ${s.heavyUser.username} (heaviest), 90 days`,
      { username: s.heavyUser.username, range: ranges.all },
    ],
    [
      `username ${s.medianUser.username} (median), 90 days`,
      { username: s.medianUser.username, range: ranges.all },
    ],
    [`username ${s.heavyUser.username}, today`, { username: s.heavyUser.username, range: ranges.today }],
    [
      `token name ${s.heavyUser.tokenName}, 90 days`,
      { token_name: s.heavyUser.tokenName, range: ranges.all },
    ],
    ['token name default (every user has one), 90 days', { token_name: 'default', range: ranges.all }],
    [
      `model ${s.popularModel} (popular, contains), 90 days`,
      { model_name: s.popularModel, range: ranges.all },
    ],
    [`model ${s.rareModel} (rare), 90 days`, { model_name: s.rareModel, range: ranges.all }],
    ['model GPT (several, ignoring case), 7 days', { model_name: 'GPT', range: ranges.week }],
    ['channel 1, 90 days', { channel: 1, range: ranges.all }],
    ['group svip, 90 days', { group: 'svip', range: ranges.all }],
    ['type error, 90 days', { type: 5, range: ranges.all }],
    ['type top-up (rare), 90 days', { type: 1, range: ranges.all }],
  ];
  const selfCases: Array<[string, ListFilters]> = [
    ['no filter, today', { range: ranges.today }],
    ['no filter, 7 days', { range: ranges.week }],
    ['no filter, 90 days', { range: ranges.all }],
    [
      `token name ${s.heavyUser.tokenName}, 90 days`,
      { token_name: s.heavyUser.tokenName, range: ranges.all },
    ],
    [`model ${s.rareModel} (rare), 90 days`, { model_name: s.rareModel, range: ranges.all }],
    ['type error, 90 days', { type: 5, range: ranges.all }],
  ];
  const queries: ConsoleQuery[] = [];
  for (const [name, filters] of filterCases) {
    queries.push({ kind: 'list', name: `admin list: ${name}`, path: admin(filters), caller: 'admin' });
  }
  for (const [name, filters] of selfCases) {
    queries.push({
      kind: 'list',
      name: `own list (heaviest user): ${name}`,
      path: self(filters),
      caller: 'heavy-user',
    });
  }
  queries.push({
    kind: 'list',
    name: 'own list (median user): no filter, 90 days',
    path: self({ range: ranges.all }),
    caller: 'median-user',
  });
  queries.push({
    kind: 'list',
    name: 'token log (heaviest token)',
    path: `/api/log/token?key=${encodeURIComponent(s.tokenKey)}`,
    caller: 'token-key',
  });
  queries.push({
    kind: 'search',
    name: 'request id (about a month old)',
    path: `/api/log/?${logQueryString({ range: null }, true, true)}&request_id=${encodeURIComponent(s.requestId)}`,
    caller: 'admin',
  });
  for (const [name, filters] of filterCases.filter(([name]) => !name.includes('page 50'))) {
    queries.push({ kind: 'stat', name: `admin stat: ${name}`, path: adminStat(filters), caller: 'admin' });
  }
  for (const [name, filters] of selfCases) {
    queries.push({
      kind: 'stat',
      name: `own stat (heaviest user): ${name}`,
      path: selfStat(filters),
      caller: 'heavy-user',
    });
  }
  // As Switchyard's console asks: hours over its hourly preset (the last day); local days, with
  // the browser's UTC offset, for the day and week granularities (7 and 30 days).
  const utcOffset = -new Date().getTimezoneOffset();
  const data = (path: string, range: [number, number], granularity: string, username = '') =>
    `${path}?start_timestamp=${range[0]}&end_timestamp=${range[1]}` +
    (username === '' ? '' : `&username=${username}`) +
    `&default_time=${granularity}` +
    (granularity === 'hour' ? '' : `&utc_offset=${utcOffset}`);
  const dashboard = (
    who: string,
    range: [number, number],
    span: string,
    granularity: 'hour' | 'day' | 'week',
    username = '',
  ): ConsoleQuery => ({
    kind: 'dashboard',
    name: `dashboard (${who}), ${span}, ${granularity === 'hour' ? 'hours' : 'days'}`,
    path: data(who.startsWith('own') ? '/api/data/self' : '/api/data/', range, granularity, username),
    caller: who.startsWith('own') ? 'heavy-user' : 'admin',
  });
  const heavy = s.heavyUser.username;
  queries.push(
    dashboard('admin, every user', ranges.day, '1 day', 'hour'),
    dashboard('admin, every user', ranges.week, '7 days', 'day'),
    dashboard('admin, every user', ranges.month, '30 days', 'week'),
    dashboard(`admin, ${heavy}`, ranges.day, '1 day', 'hour', heavy),
    dashboard(`admin, ${heavy}`, ranges.month, '30 days', 'week', heavy),
    dashboard('admin, every user', ranges.all, '90 days', 'week'),
    dashboard(`admin, ${heavy}`, ranges.all, '90 days', 'week', heavy),
    dashboard('own, heaviest user', ranges.day, '1 day', 'hour'),
    dashboard('own, heaviest user', ranges.week, '7 days', 'day'),
    dashboard('own, heaviest user', ranges.month, '30 days', 'week'),
    {
      kind: 'usage',
      name: 'user list (used quota, requests)',
      path: '/api/user/?p=1&page_size=10',
      caller: 'admin',
    },
    {
      kind: 'usage',
      name: 'token list (heaviest user, used quota)',
      path: '/api/token/?p=1&size=10',
      caller: 'heavy-user',
    },
  );
  return queries;
}
