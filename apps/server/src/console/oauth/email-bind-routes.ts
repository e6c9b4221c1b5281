import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { currentUser, requireUser } from '../../auth/guards.ts';
import { invalidRequest } from '../../errors/gateway-error.ts';
import { criticalRateLimit } from '../../rate-limit/rate-limit-hooks.ts';
import { checkEmailAllowed } from '../auth/email-rules.ts';
import { ok } from '../envelope.ts';

const EmailBindQuery = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 255 })),
  code: Type.Optional(Type.String({ maxLength: 64 })),
});

/**
 * GET /api/oauth/email/bind?email&code: sets the signed-in user's e-mail once the code mailed to
 * it by /api/verification is shown (single use, 10 minutes).
 */
export async function emailBindRoutes(app: FastifyInstance): Promise<void> {
  const { options, users, verifications } = app.services;

  app.get(
    '/oauth/email/bind',
    { onRequest: [criticalRateLimit, requireUser], schema: { querystring: EmailBindQuery } },
    async (request) => {
      const { email: rawEmail = '', code = '' } = request.query as { email?: string; code?: string };
      if (rawEmail.trim() === '' || code.trim() === '') throw invalidRequest('无效的参数');
      const email = checkEmailAllowed(rawEmail, options);
      const user = currentUser(request);
      const holder = await users.findActiveByEmail(email);
      if (holder && holder.id !== user.id) throw invalidRequest('邮箱地址已被占用');
      if (!(await verifications.consume('email_verification', email, code.trim()))) {
        throw invalidRequest('验证码错误或已过期');
      }
      await users.update(user.id, { email });
      return ok();
    },
  );
}
