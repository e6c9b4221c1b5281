import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { currentUser, requireUser } from '../../auth/guards.ts';
import { startLoginSession } from '../../auth/login-session.ts';
import { invalidRequest } from '../../errors/gateway-error.ts';
import { criticalRateLimit } from '../../rate-limit/rate-limit-hooks.ts';
import { ok } from '../envelope.ts';
import { bindIdentity, signInWithIdentity } from './identity-service.ts';
import { weChatIdOfCode } from './wechat-server.ts';

const CodeQuery = Type.Object({ code: Type.Optional(Type.String({ maxLength: 256 })) });
const DISABLED = '管理员未开启通过微信登录以及注册';

/** WeChat sign-in and binding with the code the WeChat server's official account hands out. */
export async function wechatRoutes(app: FastifyInstance): Promise<void> {
  const { services } = app;
  const { options } = services;

  app.get(
    '/oauth/wechat',
    { onRequest: criticalRateLimit, schema: { querystring: CodeQuery } },
    async (request, reply) => {
      if (!options.getBoolean('WeChatAuthEnabled')) throw invalidRequest(DISABLED);
      const { code = '' } = request.query as { code?: string };
      const id = await weChatIdOfCode(options, code);
      const user = await signInWithIdentity(
        services,
        { column: 'wechat_id', id },
        { usernamePrefix: 'wechat_', displayName: 'WeChat User', email: '', affCode: '' },
      );
      return ok(await startLoginSession(request, reply, user), '');
    },
  );

  app.get(
    '/oauth/wechat/bind',
    { onRequest: [criticalRateLimit, requireUser], schema: { querystring: CodeQuery } },
    async (request) => {
      if (!options.getBoolean('WeChatAuthEnabled')) throw invalidRequest(DISABLED);
      const { code = '' } = request.query as { code?: string };
      const id = await weChatIdOfCode(options, code);
      await bindIdentity(services, currentUser(request), { column: 'wechat_id', id }, '该微信账号已被绑定');
      return ok();
    },
  );
}
