import type { UserView } from '@switchyard/shared';
import type { UserRow } from '../../db/repositories/user-repository.ts';
import { deletedAtSeconds } from '../../db/soft-delete.ts';

/** The console's view of a user row: no password hash, no access token. */
export function toUserView(user: UserRow): UserView {
  const deletedAt = deletedAtSeconds(user.deleted_at);
  return {
    id: user.id,
    username: user.username,
    display_name: user.display_name,
    role: user.role,
    status: user.status,
    email: user.email ?? '',
    github_id: user.github_id ?? '',
    wechat_id: user.wechat_id ?? '',
    telegram_id: user.telegram_id ?? '',
    linux_do_id: user.linux_do_id ?? '',
    quota: user.quota,
    used_quota: user.used_quota,
    request_count: user.request_count,
    group: user.group,
    aff_code: user.aff_code ?? '',
    aff_count: user.aff_count,
    aff_quota: user.aff_quota,
    aff_history_quota: user.aff_history,
    inviter_id: user.inviter_id,
    setting: user.setting ?? '',
    created_time: user.created_time,
    deleted_at: deletedAt,
    DeletedAt: deletedAt === null ? null : new Date(deletedAt * 1000).toISOString(),
  };
}
