import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { sessionUserOf, startLoginSession } from '../../auth/login-session.ts';
import { consumeOAuthState, issueOAuthState } from '../../auth/oauth-state.ts';
import { invalidRequest } from '../../errors/gateway-error.ts';
import { criticalRateLimit } from '../../rate-limit/rate-limit-hooks.ts';
import { ok } from '../envelope.ts';
import { emailBindRoutes } from './email-bind-routes.ts';
import { bindIdentity, signInWithIdentity } from './identity-service.ts';
import { githubProvider, linuxDoProvider, type OAuthProvider } from './oauth-providers.ts';
import { telegramRoutes } from './telegram-routes.ts';
import { wechatRoutes } from './wechat-routes.ts';

const StateQuery = Type.Object({
  aff: Type.Optional(Type.String({ maxLength: 32, pattern: '^[A-Za-z0-9]*$' })),
});

const CallbackQuery = Type.Object({
  code: Type.Optional(Type.String({ maxLength: 1024 })),
  state: Type.Optional(Type.String({ maxLength: 128 })),
});

/**
 * GET /api/oauth/{github|linuxdo}?code&state: checks and spends the state, exchanges the code at
 * the provider, then binds the account to the signed-in user (reply message "bind") or signs in
 * as its user, creating one on first sign-in when registration is on.
 */
function registerCodeCallback(app: FastifyInstance, provider: OAuthProvider): void {
  const { services } = app;
  app.get(
    `/oauth/${provider.type}`,
    { onRequest: criticalRateLimit, schema: { querystring: CallbackQuery } },
    async (request, reply) => {
      const { code = '', state = '' } = request.query as { code?: string; state?: string };
      const { aff } = await consumeOAuthState(request, reply, state);
      if (!services.options.getBoolean(provider.enabledOption)) {
        throw invalidRequest(`管理员未开启通过 ${provider.name} 登录以及注册`);
      }
      if (code.trim() === '') throw invalidRequest('无效的参数');
      const sessionUser = await sessionUserOf(request);
      const profile = await provider.fetchProfile(services, code.trim());
      const identity = { column: provider.column, id: profile.id, legacyId: profile.legacyId };
      if (sessionUser) {
        await bindIdentity(services, sessionUser, identity, `该 ${provider.name} 账户已被绑定`);
        return ok(null, 'bind');
      }
      const user = await signInWithIdentity(services, identity, {
        usernamePrefix: provider.usernamePrefix,
        displayName: profile.displayName || provider.defaultDisplayName,
        email: profile.email,
        affCode: aff,
      });
      return ok(await startLoginSession(request, reply, user), '');
    },
  );
}

/** Third-party sign-in and binding (OAuth state, GitHub, Linux-DO, WeChat, Telegram, e-mail bind). */
export async function oauthRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/oauth/state',
    { onRequest: criticalRateLimit, schema: { querystring: StateQuery } },
    async (request, reply) => {
      const { aff = '' } = request.query as { aff?: string };
      return ok(await issueOAuthState(request, reply, aff));
    },
  );
  registerCodeCallback(app, githubProvider);
  registerCodeCallback(app, linuxDoProvider);
  await app.register(wechatRoutes);
  await app.register(telegramRoutes);
  await app.register(emailBindRoutes);
}
