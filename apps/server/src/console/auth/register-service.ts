import { LogType, type RegisterBody, textOf } from '@switchyard/shared';
import bcrypt from 'bcryptjs';
import type { AppServices } from '../../app-services.ts';
import { bcryptCost } from '../../bootstrap.ts';
import type { NewUser } from '../../db/repositories/user-repository.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { invalidRequest } from '../../errors/gateway-error.ts';
import { randomAlphanumeric } from '../../plugins/request-id.ts';
import { checkDisplayName, checkPassword, checkUsername } from '../users/user-rules.ts';
import { checkEmailAllowed } from './email-rules.ts';

/** Formats quota for log texts the way the reference does ("$x.xx" with currency display). */
export function describeQuota(quota: number, services: Pick<AppServices, 'options'>): string {
  const { options } = services;
  if (!options.getBoolean('DisplayInCurrencyEnabled')) return `${quota} 点额度`;
  return `$${(quota / (options.getNumber('QuotaPerUnit') || 500_000)).toFixed(6)} 额度`;
}

/** A fresh invite code (8 characters; the reference's 4 collide as users grow). */
export const newAffCode = () => randomAlphanumeric(8);

/**
 * Registers a user with password: option gates, validation, e-mail code, invite rewards and the
 * new-user quota, all in one transaction, with a system log for every quota granted.
 */
export async function registerUser(services: AppServices, body: RegisterBody): Promise<number> {
  const { options, users, verifications } = services;
  if (!options.getBoolean('RegisterEnabled')) throw invalidRequest('管理员关闭了新用户注册');
  if (!options.getBoolean('PasswordRegisterEnabled')) {
    throw invalidRequest('管理员关闭了通过密码进行注册，请使用第三方账户验证的形式进行注册');
  }
  const username = checkUsername(textOf(body.username));
  const password = checkPassword(textOf(body.password));
  if (body.password2 !== undefined && body.password2 !== null && body.password2 !== password)
    throw invalidRequest('两次输入的密码不一致');
  // Checked before the e-mail code is consumed, so a taken name does not burn the code (the
  // transaction below checks again against concurrent registrations).
  if (await users.findByUsername(username)) throw invalidRequest('用户名已存在，或已注销');
  let email = '';
  if (options.getBoolean('EmailVerificationEnabled')) {
    const code = textOf(body.verification_code);
    if (!body.email || !code) throw invalidRequest('管理员开启了邮箱验证，请输入邮箱地址和验证码');
    email = checkEmailAllowed(body.email, options);
    if (await users.findActiveByEmail(email)) throw invalidRequest('邮箱地址已被占用');
    if (!(await verifications.consume('email_verification', email, code.trim()))) {
      throw invalidRequest('验证码错误或已过期');
    }
  }
  const hash = await bcrypt.hash(password, bcryptCost());
  return createUserWithRewards(
    services,
    { username, password: hash, display_name: checkDisplayName(undefined, username), email },
    textOf(body.aff_code),
  ).catch((error: unknown) => {
    if (isUniqueViolation(error)) throw invalidRequest('用户名已存在，或已注销');
    throw error;
  });
}

/** The fields of a new user that the caller decides (the rest take their defaults). */
export type NewUserFields = Pick<NewUser, 'username' | 'display_name'> &
  Partial<Pick<NewUser, 'password' | 'email' | 'github_id' | 'linux_do_id' | 'wechat_id' | 'telegram_id'>>;

/**
 * Inserts a user with the new-user quota and, for a valid invite code, the invite rewards, in one
 * transaction, then writes a system log for every quota granted. Returns the new id. A taken
 * username throws (a unique violation or the "already exists" refusal).
 */
export async function createUserWithRewards(
  services: AppServices,
  fields: NewUserFields,
  affCode: string | undefined,
): Promise<number> {
  const { options, users } = services;
  const quotaForNewUser = options.getNumber('QuotaForNewUser');
  const quotaForInvitee = options.getNumber('QuotaForInvitee');
  const quotaForInviter = options.getNumber('QuotaForInviter');
  const logs: Parameters<AppServices['logs']['insertMany']>[0] = [];
  const { username } = fields;

  const userId = await users.transaction(async (trx) => {
    if (await users.findByUsername(username, trx)) throw invalidRequest('用户名已存在，或已注销');
    const inviter = affCode?.trim() ? await users.findActiveByAffCode(affCode.trim(), trx) : undefined;
    const quota = quotaForNewUser + (inviter ? quotaForInvitee : 0);
    const id = await users.create(
      { ...fields, quota, aff_code: newAffCode(), inviter_id: inviter?.id ?? 0 },
      trx,
    );
    if (quotaForNewUser > 0) {
      logs.push({
        user_id: id,
        username,
        type: LogType.System,
        content: `新用户注册赠送 ${describeQuota(quotaForNewUser, services)}`,
      });
    }
    if (inviter) {
      if (quotaForInvitee > 0) {
        logs.push({
          user_id: id,
          username,
          type: LogType.System,
          content: `使用邀请码赠送 ${describeQuota(quotaForInvitee, services)}`,
        });
      }
      await users.rewardInviter(inviter.id, quotaForInviter, trx);
      if (quotaForInviter > 0) {
        logs.push({
          user_id: inviter.id,
          username: inviter.username,
          type: LogType.System,
          content: `邀请用户赠送 ${describeQuota(quotaForInviter, services)}（计入邀请额度）`,
        });
      }
    }
    return id;
  });
  await services.logs.insertMany(logs);
  return userId;
}
