import { randomBytes } from 'node:crypto';
import { Role } from '@switchyard/shared';
import bcrypt from 'bcryptjs';
import type { FastifyBaseLogger } from 'fastify';
import type { AppServices } from './app-services.ts';

/** Password hashing cost; tests lower it through BCRYPT_COST to stay fast. */
export const bcryptCost = (): number => Number(process.env.BCRYPT_COST) || 10;

/**
 * The session secret: SESSION_SECRET when set; otherwise one generated once and stored in the
 * database, so every node sharing the database signs alike and sessions survive restarts.
 */
export async function resolveSessionSecret(
  services: Pick<AppServices, 'config' | 'optionRepository'>,
  log: FastifyBaseLogger,
): Promise<string> {
  if (services.config.sessionSecret) return services.config.sessionSecret;
  const generated = randomBytes(32).toString('base64url');
  const stored = await services.optionRepository.insertIfAbsent('SessionSecret', generated);
  log.warn(
    'SESSION_SECRET is not set: using a generated secret stored in the database; set SESSION_SECRET to control it',
  );
  return stored;
}

/** First start: creates the root user (root / 123456) when no user exists, and records the setup. */
export async function ensureRootUser(
  services: Pick<AppServices, 'users' | 'database' | 'version'>,
  log: FastifyBaseLogger,
) {
  if ((await services.users.count()) > 0) return;
  const password = await bcrypt.hash('123456', bcryptCost());
  try {
    await services.users.create({
      username: 'root',
      password,
      display_name: 'Root User',
      role: Role.Root,
      status: 1,
      quota: 100_000_000,
    });
    await services.database.db
      .insertInto('setups')
      .values({ version: services.version, initialized_at: Math.floor(Date.now() / 1000) })
      .execute();
    log.warn(
      'created the root user "root" with the default password 123456: change it after the first login',
    );
  } catch (error) {
    // Another node created it first (unique username).
    if ((await services.users.findByUsername('root')) === undefined) throw error;
  }
}
