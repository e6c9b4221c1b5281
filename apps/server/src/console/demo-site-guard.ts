import { ErrorCode, Role } from '@switchyard/shared';
import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../errors/gateway-error.ts';
import type { OptionStore } from '../options/option-store.ts';

/**
 * Demo-site mode (DemoSiteEnabled): a public demo lets visitors sign up, sign in, create tokens,
 * redeem codes and try the relay and the playground, but refuses with 405 every other change
 * made through the console API by anyone but the root user — account changes (password, e-mail
 * binding kept only by the code flows, deletion, notification webhooks), payments, and every
 * admin change (users, channels, redemptions, options). The console shows its "demo site" message
 * for 405. Reads are never refused; the root user keeps full control.
 */
const ALLOWED_CHANGES: ReadonlyArray<RegExp> = [
  /^\/api\/user\/(login|register|reset|topup)$/,
  /^\/api\/user\/epay\/notify$/,
  /^\/api\/token(\/.*)?$/,
];

const CHANGING_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** True when demo-site mode refuses this request (see the module comment). */
export function isRefusedOnDemoSite(method: string, path: string, role: number | undefined): boolean {
  if (!CHANGING_METHODS.has(method)) return false;
  if (role !== undefined && role >= Role.Root) return false;
  return !ALLOWED_CHANGES.some((pattern) => pattern.test(path));
}

/** A `preHandler` hook (after the route's own guards have identified the user). */
export function demoSiteGuard(options: OptionStore) {
  return async (request: FastifyRequest) => {
    if (!options.getBoolean('DemoSiteEnabled')) return;
    const path = (request.url.split('?')[0] ?? '').replace(/\/+$/, '');
    if (isRefusedOnDemoSite(request.method, path, request.user?.role)) {
      throw new GatewayError(ErrorCode.FeatureDisabled, '演示站点不支持此操作', { status: 405 });
    }
  };
}
