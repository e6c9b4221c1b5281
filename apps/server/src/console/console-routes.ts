import type { FastifyInstance } from 'fastify';
import { limitByIp } from '../rate-limit/rate-limit-hooks.ts';
import { authRoutes } from './auth/auth-routes.ts';
import { channelOperationRoutes } from './channels/channel-operation-routes.ts';
import { channelRoutes } from './channels/channel-routes.ts';
import { demoSiteGuard } from './demo-site-guard.ts';
import { groupRoutes } from './groups/group-routes.ts';
import { logRoutes } from './logs/log-routes.ts';
import { oauthRoutes } from './oauth/oauth-routes.ts';
import { optionRoutes } from './options/option-routes.ts';
import { pricingRoutes } from './pricing/pricing-routes.ts';
import { redemptionRoutes } from './redemptions/redemption-routes.ts';
import { statusRoutes } from './status/status-routes.ts';
import { taskRoutes } from './tasks/task-routes.ts';
import { tokenRoutes } from './tokens/token-routes.ts';
import { userAdminRoutes } from './users/user-admin-routes.ts';
import { userSelfRoutes } from './users/user-self-routes.ts';
import { walletRoutes } from './wallet/wallet-routes.ts';

/** Registers every console resource under /api, explicitly and in order. */
export async function registerConsoleRoutes(app: FastifyInstance): Promise<void> {
  const { globalApiRateLimit } = app.services.config;
  if (globalApiRateLimit.enabled) {
    app.addHook(
      'onRequest',
      limitByIp('GA', () => globalApiRateLimit),
    );
  }
  app.addHook('preHandler', demoSiteGuard(app.services.options));
  await app.register(statusRoutes);
  await app.register(optionRoutes);
  await app.register(authRoutes);
  await app.register(userSelfRoutes);
  await app.register(userAdminRoutes);
  await app.register(groupRoutes);
  await app.register(tokenRoutes);
  await app.register(channelRoutes);
  await app.register(channelOperationRoutes);
  await app.register(redemptionRoutes);
  await app.register(walletRoutes);
  await app.register(logRoutes);
  await app.register(pricingRoutes);
  await app.register(oauthRoutes);
  await app.register(taskRoutes);
}
