import { Type } from '@sinclair/typebox';
import { LoginBody, PasswordResetBody, RegisterBody, UserStatus } from '@switchyard/shared';
import bcrypt from 'bcryptjs';
import type { FastifyInstance } from 'fastify';
import { clearSessionCookie } from '../../auth/guards.ts';
import { revokeSessionCookie, startLoginSession } from '../../auth/login-session.ts';
import { checkTurnstile } from '../../auth/turnstile.ts';
import { bcryptCost } from '../../bootstrap.ts';
import { invalidRequest } from '../../errors/gateway-error.ts';
import { randomAlphanumeric } from '../../plugins/request-id.ts';
import { criticalRateLimit } from '../../rate-limit/rate-limit-hooks.ts';
import { ok } from '../envelope.ts';
import { checkEmailAllowed } from './email-rules.ts';
import { registerUser } from './register-service.ts';

/** A real bcrypt hash compared against when the user does not exist, so timing does not reveal it. */
const DUMMY_HASH = bcrypt.hashSync('switchyard-timing-equalizer', 10);

const EmailQuery = Type.Object({
  email: Type.Optional(Type.String({ maxLength: 255 })),
  turnstile: Type.Optional(Type.String({ maxLength: 4096 })),
});

/** Sign-in, registration, verification codes and password reset (all behind the critical limit). */
export async function authRoutes(app: FastifyInstance): Promise<void> {
  const { options, users, mailer, verifications } = app.services;
  const critical = { onRequest: criticalRateLimit, preHandler: checkTurnstile };

  app.post('/user/login', { ...critical, schema: { body: LoginBody } }, async (request, reply) => {
    if (!options.getBoolean('PasswordLoginEnabled')) throw invalidRequest('管理员关闭了密码登录');
    const { username, password } = request.body as LoginBody;
    if (username.trim() === '' || password === '') throw invalidRequest('无效的参数');
    const user = await users.findActiveByLogin(username.trim());
    const matches = await bcrypt.compare(password, user?.password || DUMMY_HASH);
    if (!user || !matches) throw invalidRequest('用户名或密码错误，或用户已被封禁');
    if (user.status !== UserStatus.Enabled) throw invalidRequest('用户已被封禁');
    return ok(await startLoginSession(request, reply, user), '');
  });

  app.get('/user/logout', async (request, reply) => {
    await revokeSessionCookie(request);
    clearSessionCookie(reply);
    return ok();
  });

  app.post('/user/register', { ...critical, schema: { body: RegisterBody } }, async (request) => {
    await registerUser(app.services, request.body as RegisterBody);
    return ok();
  });

  app.get('/verification', { ...critical, schema: { querystring: EmailQuery } }, async (request) => {
    const { email: rawEmail = '' } = request.query as { email?: string };
    const email = checkEmailAllowed(rawEmail, options);
    if (await users.findActiveByEmail(email)) throw invalidRequest('邮箱地址已被占用');
    const code = await verifications.issue('email_verification', email);
    const system = options.get('SystemName');
    await mailer.send(
      email,
      `${system}邮箱验证邮件`,
      `<p>您好，你正在进行${system}邮箱验证。</p><p>您的验证码为: <strong>${code}</strong></p><p>验证码 10 分钟内有效，如果不是本人操作，请忽略。</p>`,
    );
    return ok();
  });

  app.get('/reset_password', { ...critical, schema: { querystring: EmailQuery } }, async (request) => {
    const { email: rawEmail = '' } = request.query as { email?: string };
    const email = rawEmail.trim();
    if (email === '') throw invalidRequest('无效的参数');
    const user = await users.findActiveByEmail(email);
    // Same answer whether or not the address is registered, so accounts cannot be discovered here.
    if (!user) return ok();
    const token = await verifications.issue('password_reset', email);
    // Never built from the Host header: a forged Host would mail the victim a link to another site.
    const address = options.get('ServerAddress') || `http://localhost:${app.services.config.port}`;
    const link = `${address}/user/reset?email=${encodeURIComponent(email)}&token=${token}`;
    const system = options.get('SystemName');
    await mailer.send(
      email,
      `${system}密码重置`,
      `<p>您好，你正在进行${system}密码重置。</p><p>点击 <a href="${link}">此处</a> 进行密码重置。</p><p>如果链接无法点击，请尝试复制以下链接到浏览器中打开：<br>${link}</p><p>重置链接 15 分钟内有效，如果不是本人操作，请忽略。</p>`,
    );
    return ok();
  });

  app.post(
    '/user/reset',
    { onRequest: criticalRateLimit, schema: { body: PasswordResetBody } },
    async (request) => {
      const { email, token } = request.body as { email: string; token: string };
      if (email.trim() === '' || token.trim() === '') throw invalidRequest('无效的参数');
      if (!(await verifications.consume('password_reset', email.trim(), token.trim()))) {
        throw invalidRequest('重置链接非法或已过期');
      }
      const user = await users.findActiveByEmail(email.trim());
      if (!user) throw invalidRequest('重置链接非法或已过期');
      const password = randomAlphanumeric(12);
      await users.update(user.id, { password: await bcrypt.hash(password, bcryptCost()) });
      return ok(password);
    },
  );
}
