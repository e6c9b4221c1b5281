import { LogType, Role, type UserManageAction, UserStatus } from '@switchyard/shared';
import type { AppServices } from '../../app-services.ts';
import type { UserRow } from '../../db/repositories/user-repository.ts';
import { deletedAtValue } from '../../db/soft-delete.ts';
import { invalidRequest } from '../../errors/gateway-error.ts';

import { outranks } from './outranks.ts';

const ACTION_TEXT: Record<UserManageAction, string> = {
  promote: '提升为管理员',
  demote: '降级为普通用户',
  disable: '禁用',
  enable: '启用',
  delete: '注销',
};

/**
 * Applies one manage action with every role rule of the spec: admins cannot act on the same or
 * higher level, only root promotes, root cannot be disabled, deleted or demoted. Returns the
 * new role and status, which the console row takes.
 */
export async function manageUser(
  services: Pick<AppServices, 'users' | 'logs' | 'database' | 'sessions'>,
  actor: UserRow,
  targetId: number,
  action: UserManageAction,
): Promise<{ role: number; status: number }> {
  const target = await services.users.findById(targetId);
  if (!target) throw invalidRequest('用户不存在');
  if (target.deleted_at !== null) throw invalidRequest('用户已注销');
  if (!outranks(actor.role, target.role)) throw invalidRequest('无权更新同权限等级或更高权限等级的用户信息');
  let { role, status } = target;
  switch (action) {
    case 'disable':
      if (target.role >= Role.Root) throw invalidRequest('无法禁用超级管理员用户');
      status = UserStatus.Disabled;
      break;
    case 'enable':
      if (target.status === UserStatus.Unknown) throw invalidRequest('该用户状态不可启用');
      status = UserStatus.Enabled;
      break;
    case 'delete':
      if (target.role >= Role.Root) throw invalidRequest('无法删除超级管理员用户');
      break;
    case 'promote':
      if (actor.role < Role.Root) throw invalidRequest('普通管理员用户无法提升其他用户为管理员');
      if (target.role >= Role.Admin) throw invalidRequest('该用户已经是管理员');
      role = Role.Admin;
      break;
    case 'demote':
      if (target.role >= Role.Root) throw invalidRequest('无法降级超级管理员用户');
      if (target.role === Role.Common) throw invalidRequest('该用户已经是普通用户');
      role = Role.Common;
      break;
  }
  if (action === 'delete') {
    const { deletedAt, kind } = services.database;
    const stamp = deletedAtValue(deletedAt.users, kind, Math.floor(Date.now() / 1000));
    await services.users.update(target.id, { deleted_at: stamp, access_token: null });
  } else {
    await services.users.update(target.id, { role, status });
  }
  // A disabled or deleted user's sessions end on every node (re-enabling does not revive them).
  if (action === 'delete' || action === 'disable') await services.sessions.revokeAllOf(target.id);
  await services.logs.insert({
    user_id: target.id,
    username: target.username,
    type: LogType.Manage,
    content: `管理员 ${actor.username} 将用户${ACTION_TEXT[action]}`,
  });
  return { role, status };
}
