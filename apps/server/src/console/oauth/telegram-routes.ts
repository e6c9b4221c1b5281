import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { currentUser, requireUser } from '../../auth/guards.ts';
import { startLoginSession } from '../../auth/login-session.ts';
import { checkTelegramAuth } from '../../auth/telegram-auth.ts';
import { invalidRequest } from '../../errors/gateway-error.ts';
import type { OptionStore } from '../../options/option-store.ts';
import { criticalRateLimit } from '../../rate-limit/rate-limit-hooks.ts';
import { ok } from '../envelope.ts';
import { bindIdentity, signInWithIdentity } from './identity-service.ts';

/** The login widget's fields; any other field is still covered by the hash check. */
const TelegramQuery = Type.Object(
  {
    id: Type.Optional(Type.String({ maxLength: 32 })),
    first_name: Type.Optional(Type.String({ maxLength: 256 })),
    last_name: Type.Optional(Type.String({ maxLength: 256 })),
    username: Type.Optional(Type.String({ maxLength: 256 })),
    photo_url: Type.Optional(Type.String({ maxLength: 1024 })),
    auth_date: Type.Optional(Type.String({ maxLength: 32 })),
    hash: Type.Optional(Type.String({ maxLength: 128 })),
  },
  { maxProperties: 16 },
);

/** The verified Telegram id of the widget fields in the query, or a clear refusal. */
function verifiedTelegramId(options: OptionStore, request: FastifyRequest): string {
  if (!options.getBoolean('TelegramOAuthEnabled'))
    throw invalidRequest('管理员未开启通过 Telegram 登录以及注册');
  const check = checkTelegramAuth(request.query as Record<string, unknown>, options.get('TelegramBotToken'));
  if (!check.ok) throw invalidRequest(check.message);
  return check.id;
}

/** Telegram sign-in (accounts bound before) and binding, from the login widget's signed fields. */
export async function telegramRoutes(app: FastifyInstance): Promise<void> {
  const { services } = app;
  const schema = { querystring: TelegramQuery };

  app.get('/oauth/telegram/login', { onRequest: criticalRateLimit, schema }, async (request, reply) => {
    const id = verifiedTelegramId(services.options, request);
    const user = await signInWithIdentity(
      services,
      { column: 'telegram_id', id },
      undefined,
      '该 Telegram 账户未绑定，请先登录后在个人设置中绑定',
    );
    return ok(await startLoginSession(request, reply, user), '');
  });

  app.get(
    '/oauth/telegram/bind',
    { onRequest: [criticalRateLimit, requireUser], schema },
    async (request) => {
      const id = verifiedTelegramId(services.options, request);
      await bindIdentity(
        services,
        currentUser(request),
        { column: 'telegram_id', id },
        '该 Telegram 账户已被绑定',
      );
      return ok();
    },
  );
}
