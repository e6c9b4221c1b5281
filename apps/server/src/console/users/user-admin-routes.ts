import { type Static, Type } from '@sinclair/typebox';
import {
  LogType,
  QueryInteger,
  Role,
  UserCreateBody,
  UserManageBody,
  UserUpdateBody,
} from '@switchyard/shared';
import bcrypt from 'bcryptjs';
import type { FastifyInstance } from 'fastify';
import { currentUser, requireAdmin } from '../../auth/guards.ts';
import { bcryptCost } from '../../bootstrap.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { invalidRequest } from '../../errors/gateway-error.ts';
import { describeQuota, newAffCode } from '../auth/register-service.ts';
import { ok, readPaging } from '../envelope.ts';
import { manageUser } from './manage-user.ts';
import { outranks } from './outranks.ts';
import { checkDisplayName, checkPassword, checkUsername, isEmailAddress } from './user-rules.ts';
import { toUserView } from './user-view.ts';

const PagingQuery = Type.Object({
  p: QueryInteger(),
  page_size: QueryInteger(),
  keyword: Type.Optional(Type.String({ maxLength: 255 })),
  group: Type.Optional(Type.String({ maxLength: 64 })),
});
const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

/** User administration (admin and root). */
export async function userAdminRoutes(app: FastifyInstance): Promise<void> {
  const { users, options, logs } = app.services;
  const guarded = { onRequest: requireAdmin };

  const list = async (query: Static<typeof PagingQuery>) => {
    const { page, pageSize, offset } = readPaging(query);
    const result = await users.search({
      keyword: query.keyword,
      group: query.group,
      offset,
      limit: pageSize,
    });
    return ok({ items: result.items.map(toUserView), total: result.total, page, page_size: pageSize });
  };
  app.get('/user/', { ...guarded, schema: { querystring: PagingQuery } }, async (request) =>
    list(request.query as Static<typeof PagingQuery>),
  );
  app.get('/user/search', { ...guarded, schema: { querystring: PagingQuery } }, async (request) =>
    list(request.query as Static<typeof PagingQuery>),
  );

  app.get('/user/:id', { ...guarded, schema: { params: IdParams } }, async (request) => {
    const actor = currentUser(request);
    const target = await users.findById((request.params as { id: number }).id);
    if (!target) throw invalidRequest('用户不存在');
    if (!outranks(actor.role, target.role)) throw invalidRequest('无权获取同级或更高等级用户的信息');
    return ok(toUserView(target));
  });

  app.post('/user/', { ...guarded, schema: { body: UserCreateBody } }, async (request) => {
    const actor = currentUser(request);
    const body = request.body as { username: string; password: string; display_name?: string; role?: number };
    if (body.username.trim() === '' || body.password === '') throw invalidRequest('用户名和密码不能为空');
    const username = checkUsername(body.username);
    const password = checkPassword(body.password);
    const role = body.role ?? Role.Common;
    if (![Role.Common, Role.Admin, Role.Root].includes(role as 1)) throw invalidRequest('无效的用户角色');
    if (role >= actor.role) throw invalidRequest('无法创建权限大于等于自己的用户');
    const quota = options.getNumber('QuotaForNewUser');
    try {
      const id = await users.create({
        username,
        password: await bcrypt.hash(password, bcryptCost()),
        display_name: checkDisplayName(body.display_name, username),
        role,
        quota,
        aff_code: newAffCode(),
      });
      if (quota > 0) {
        await logs.insert({
          user_id: id,
          username,
          type: LogType.System,
          content: `管理员创建用户，新用户赠送 ${describeQuota(quota, app.services)}`,
        });
      }
    } catch (error) {
      if (isUniqueViolation(error)) throw invalidRequest('用户名已存在，或已注销');
      throw error;
    }
    return ok();
  });

  app.put('/user/', { ...guarded, schema: { body: UserUpdateBody } }, async (request) => {
    const actor = currentUser(request);
    const body = request.body as {
      id: number;
      username?: string;
      display_name?: string;
      password?: string;
      email?: string;
      group?: string;
      quota?: number;
      role?: number;
    };
    const target = await users.findById(body.id);
    if (!target) throw invalidRequest('用户不存在');
    if (target.deleted_at !== null) throw invalidRequest('用户已注销');
    if (!outranks(actor.role, target.role))
      throw invalidRequest('无权更新同权限等级或更高权限等级的用户信息');
    if (body.role !== undefined && body.role !== target.role && !outranks(actor.role, body.role)) {
      throw invalidRequest('无权将其他用户权限等级提升到大于等于自己的权限等级');
    }
    const changes: Record<string, string | number> = {};
    if (body.username !== undefined && body.username !== target.username)
      changes.username = checkUsername(body.username);
    if (body.display_name !== undefined) {
      changes.display_name = checkDisplayName(body.display_name, String(changes.username ?? target.username));
    }
    if (body.password) changes.password = await bcrypt.hash(checkPassword(body.password), bcryptCost());
    if (body.email !== undefined && body.email !== target.email) {
      const email = body.email.trim();
      if (email !== '' && !isEmailAddress(email)) throw invalidRequest('无效的邮箱地址');
      // One live account per address: login and password reset look users up by e-mail.
      const holder = email === '' ? undefined : await users.findActiveByEmail(email);
      if (holder && holder.id !== target.id) throw invalidRequest('邮箱地址已被占用');
      changes.email = email;
    }
    if (body.group !== undefined && body.group.trim() !== '' && body.group !== target.group) {
      changes.group = body.group.trim();
    }
    let quotaChange: { from: number; to: number } | null = null;
    try {
      await users.transaction(async (trx) => {
        if (body.quota !== undefined) {
          // Read and write in one transaction so the logged "from" is the balance actually replaced.
          const fresh = await users.findById(target.id, trx);
          if (fresh && fresh.quota !== body.quota) {
            quotaChange = { from: fresh.quota, to: body.quota };
            changes.quota = body.quota;
          }
        }
        await users.update(target.id, changes, trx);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw invalidRequest('用户名已存在，或已注销');
      throw error;
    }
    if (quotaChange) {
      const { from, to } = quotaChange as { from: number; to: number };
      await logs.insert({
        user_id: target.id,
        username: String(changes.username ?? target.username),
        type: LogType.Manage,
        quota: to - from,
        content: `管理员将用户额度从 ${describeQuota(from, app.services)} 修改为 ${describeQuota(to, app.services)}`,
        other: JSON.stringify({ admin_id: actor.id, admin_username: actor.username, from, to }),
      });
    }
    return ok();
  });

  app.post('/user/manage', { ...guarded, schema: { body: UserManageBody } }, async (request) => {
    const body = request.body as {
      id: number;
      action: 'promote' | 'demote' | 'disable' | 'enable' | 'delete';
    };
    return ok(await manageUser(app.services, currentUser(request), body.id, body.action));
  });

  app.delete('/user/:id', { ...guarded, schema: { params: IdParams } }, async (request) => {
    await manageUser(app.services, currentUser(request), (request.params as { id: number }).id, 'delete');
    return ok();
  });
}
