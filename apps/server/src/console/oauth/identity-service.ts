import { UserStatus } from '@switchyard/shared';
import type { AppServices } from '../../app-services.ts';
import type { IdentityColumn, UserRow } from '../../db/repositories/user-repository.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { invalidRequest, isGatewayError } from '../../errors/gateway-error.ts';
import { randomAlphanumeric } from '../../plugins/request-id.ts';
import { createUserWithRewards } from '../auth/register-service.ts';
import { isEmailAddress } from '../users/user-rules.ts';

/** A third-party account proving who is signing in. */
export interface Identity {
  column: IdentityColumn;
  id: string;
  /** An older id form of the same account; a row found by it is moved to `id`. */
  legacyId?: string;
}

/** How to create the user on a first sign-in (absent: first sign-in is refused with `unboundMessage`). */
export interface FirstLogin {
  usernamePrefix: string;
  displayName: string;
  email: string;
  affCode: string;
}

async function findHolder(services: AppServices, identity: Identity): Promise<UserRow | undefined> {
  const { users } = services;
  const user = await users.findByIdentity(identity.column, identity.id);
  if (user || !identity.legacyId) return user;
  const legacy = await users.findByIdentity(identity.column, identity.legacyId);
  if (legacy) await users.update(legacy.id, { [identity.column]: identity.id });
  return legacy && { ...legacy, [identity.column]: identity.id };
}

async function createFromIdentity(
  services: AppServices,
  identity: Identity,
  first: FirstLogin,
): Promise<number> {
  const { users } = services;
  const email =
    isEmailAddress(first.email) && !(await users.findActiveByEmail(first.email)) ? first.email : '';
  for (let attempt = 0; ; attempt++) {
    const suffix = attempt === 0 ? String((await users.maxId()) + 1) : randomAlphanumeric(6).toLowerCase();
    try {
      return await createUserWithRewards(
        services,
        {
          username: `${first.usernamePrefix}${suffix}`,
          display_name: first.displayName.slice(0, 20),
          email,
          [identity.column]: identity.id,
        },
        first.affCode,
      );
    } catch (error) {
      const nameTaken =
        isUniqueViolation(error) || (isGatewayError(error) && /用户名已存在/.test(error.message));
      if (!nameTaken || attempt >= 4) throw error;
    }
  }
}

/**
 * The user a third-party account signs in as: the one bound to it, or (with `first`, when
 * registration is on) a new user bound to it. Deactivated and banned users are refused.
 */
export async function signInWithIdentity(
  services: AppServices,
  identity: Identity,
  first: FirstLogin | undefined,
  unboundMessage = '管理员关闭了新用户注册',
): Promise<UserRow> {
  let user = await findHolder(services, identity);
  if (!user) {
    if (!first) throw invalidRequest(unboundMessage);
    if (!services.options.getBoolean('RegisterEnabled')) throw invalidRequest('管理员关闭了新用户注册');
    user = await services.users.findById(await createFromIdentity(services, identity, first));
    if (!user) throw invalidRequest('用户创建失败，请稍后重试');
  }
  if (user.deleted_at !== null) throw invalidRequest('用户已注销');
  if (user.status !== UserStatus.Enabled) throw invalidRequest('用户已被封禁');
  return user;
}

/**
 * Links a third-party account to a signed-in user. An account already linked to anyone
 * (deactivated users included) is refused with `alreadyBoundMessage`.
 */
export async function bindIdentity(
  services: AppServices,
  user: UserRow,
  identity: Identity,
  alreadyBoundMessage: string,
): Promise<void> {
  const { users } = services;
  if (user.deleted_at !== null) throw invalidRequest('用户已注销');
  if (user.status !== UserStatus.Enabled) throw invalidRequest('用户已被封禁');
  await users.transaction(async (trx) => {
    const ids = [identity.id, ...(identity.legacyId ? [identity.legacyId] : [])];
    for (const id of ids) {
      if (await users.findByIdentity(identity.column, id, trx)) throw invalidRequest(alreadyBoundMessage);
    }
    await users.update(user.id, { [identity.column]: identity.id }, trx);
  });
}
