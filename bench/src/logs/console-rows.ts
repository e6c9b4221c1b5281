/**
 * The users, tokens and channels rows a filled log table refers to, with used quota and request
 * counts equal to the logs' totals (the per-user and per-token usage figures the console lists).
 */
import type { LogTotals } from './log-rows.ts';
import type { World } from './log-world.ts';

export type Row = Record<string, string | number | null>;

/** The access token of a user row: the bench calls a user's own pages with it. */
export const accessTokenOf = (userId: number) => `benchaccess${String(userId).padStart(8, '0')}`;

export function userRows(world: World, totals: LogTotals, createdTime: number): Row[] {
  return world.users.map((user) => ({
    id: user.id,
    username: user.username,
    password: '',
    display_name: user.username,
    role: 1,
    status: 1,
    access_token: accessTokenOf(user.id),
    quota: 500_000_000,
    used_quota: totals.userQuota.get(user.id) ?? 0,
    request_count: totals.userRequests.get(user.id) ?? 0,
    group: user.group,
    aff_code: `aff${user.id}`,
    created_time: createdTime,
  }));
}

export function tokenRows(world: World, totals: LogTotals, createdTime: number): Row[] {
  return world.tokens.map((token) => ({
    id: token.id,
    user_id: world.users[token.userIndex]!.id,
    key: token.key,
    status: 1,
    name: token.name,
    created_time: createdTime,
    accessed_time: createdTime,
    expired_time: -1,
    remain_quota: 0,
    unlimited_quota: 1,
    used_quota: totals.tokenQuota.get(token.id) ?? 0,
    group: '',
  }));
}

export function channelRows(world: World, totals: LogTotals, createdTime: number): Row[] {
  return world.channels.map((channel) => ({
    id: channel.id,
    type: 1,
    key: 'sk-bench-channel',
    status: 1,
    name: channel.name,
    created_time: createdTime,
    base_url: 'http://127.0.0.1:9',
    models: channel.models.join(','),
    group: 'default,vip,svip',
    used_quota: totals.channelQuota.get(channel.id) ?? 0,
  }));
}
