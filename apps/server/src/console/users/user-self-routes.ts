import { randomBytes } from 'node:crypto';
import { AffTransferBody, LogType, Role, SelfUpdateBody, UserSettingBody } from '@switchyard/shared';
import bcrypt from 'bcryptjs';
import type { FastifyInstance } from 'fastify';
import { clearSessionCookie, currentUser, requireUser } from '../../auth/guards.ts';
import { issueSessionCookie } from '../../auth/login-session.ts';
import { bcryptCost } from '../../bootstrap.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { invalidRequest } from '../../errors/gateway-error.ts';
import { describeQuota, newAffCode } from '../auth/register-service.ts';
import { ok } from '../envelope.ts';
import { checkDisplayName, checkPassword, checkUsername, isEmailAddress } from './user-rules.ts';
import { toUserView } from './user-view.ts';

/** What a user does with their own account. */
export async function userSelfRoutes(app: FastifyInstance): Promise<void> {
  const { users, options, logs } = app.services;
  const guarded = { onRequest: requireUser };

  app.get('/user/self', guarded, async (request) => ok(toUserView(currentUser(request))));

  app.put('/user/self', { ...guarded, schema: { body: SelfUpdateBody } }, async (request, reply) => {
    const user = currentUser(request);
    const body = request.body as { username?: string; display_name?: string; password?: string };
    const changes: Record<string, string> = {};
    if (body.username !== undefined && body.username !== user.username)
      changes.username = checkUsername(body.username);
    const username = changes.username ?? user.username;
    if (body.display_name !== undefined) changes.display_name = checkDisplayName(body.display_name, username);
    if (body.password !== undefined && body.password !== '') {
      changes.password = await bcrypt.hash(checkPassword(body.password), bcryptCost());
    }
    try {
      await users.update(user.id, changes);
    } catch (error) {
      if (isUniqueViolation(error)) throw invalidRequest('用户名已存在，或已注销');
      throw error;
    }
    if (changes.password) {
      // The password stamp changed: renew this browser's session, every other session ends.
      await issueSessionCookie(request, reply, user.id, changes.password);
    }
    return ok();
  });

  app.delete('/user/self', guarded, async (request, reply) => {
    const user = currentUser(request);
    if (user.role >= Role.Root) throw invalidRequest('不能删除超级管理员账户');
    await users.update(user.id, { deleted_at: Math.floor(Date.now() / 1000), access_token: null });
    await app.services.sessions.revokeAllOf(user.id);
    clearSessionCookie(reply);
    return ok();
  });

  app.get('/user/token', guarded, async (request) => {
    const user = currentUser(request);
    const token = randomBytes(24).toString('base64url');
    await users.update(user.id, { access_token: token });
    return ok(token);
  });

  app.get('/user/aff', guarded, async (request) => {
    const user = currentUser(request);
    if (user.aff_code) return ok(user.aff_code);
    const code = newAffCode();
    await users.update(user.id, { aff_code: code });
    return ok(code);
  });

  app.post('/user/aff_transfer', { ...guarded, schema: { body: AffTransferBody } }, async (request) => {
    const user = currentUser(request);
    const { quota } = request.body as { quota: number };
    const unit = options.getNumber('QuotaPerUnit') || 500_000;
    if (quota < unit) throw invalidRequest(`邀请额度最小为 ${describeQuota(unit, app.services)}`);
    if (!(await users.transferAffQuota(user.id, quota))) throw invalidRequest('邀请额度不足！');
    await logs.insert({
      user_id: user.id,
      username: user.username,
      type: LogType.System,
      content: `邀请额度划转到余额 ${describeQuota(quota, app.services)}`,
    });
    return ok(undefined, '划转成功');
  });

  app.put('/user/setting', { ...guarded, schema: { body: UserSettingBody } }, async (request) => {
    const user = currentUser(request);
    const body = request.body as UserSettingBody;
    // Quota is counted in whole units: a threshold that floors to 0 would never warn.
    const threshold = Math.floor(body.quota_warning_threshold);
    if (!(threshold > 0)) throw invalidRequest('额度预警阈值必须大于 0');
    if (!Number.isSafeInteger(threshold)) throw invalidRequest('额度预警阈值过大');
    const setting: Record<string, unknown> = {
      notify_type: body.notify_type,
      quota_warning_threshold: threshold,
    };
    if (body.notify_type === 'webhook') {
      const url = (body.webhook_url ?? '').trim();
      let parsed: URL | null = null;
      try {
        parsed = new URL(url);
      } catch {
        parsed = null;
      }
      if (parsed?.protocol !== 'https:') throw invalidRequest('Webhook 地址必须是 https 开头的合法地址');
      setting.webhook_url = url;
      setting.webhook_secret = body.webhook_secret ?? '';
    }
    const email = (body.notification_email ?? '').trim();
    if (email !== '') {
      if (!isEmailAddress(email)) throw invalidRequest('无效的通知邮箱地址');
      setting.notification_email = email;
    }
    if (body.accept_unset_model_ratio_model !== undefined) {
      setting.accept_unset_model_ratio_model = body.accept_unset_model_ratio_model;
    }
    await users.update(user.id, { setting: JSON.stringify(setting) });
    return ok(undefined, '设置已更新');
  });
}
