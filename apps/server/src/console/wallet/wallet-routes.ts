import { TopUpAmountBody, TopUpPayBody, type TopUpPayReply } from '@switchyard/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { currentUser, requireUser } from '../../auth/guards.ts';
import { TopUpRepository } from '../../db/repositories/top-up-repository.ts';
import { handleEpayNotification, type NotifyAnswer } from './epay-notify.ts';
import { createTopUpOrder, quoteForUser } from './top-up-service.ts';

/** Largest notification body read (Epay sends a dozen short fields). */
const NOTIFY_BODY_LIMIT = 16 * 1024;

/** Parses an `application/x-www-form-urlencoded` body; a repeated field is kept as an array (and refused later). */
function parseForm(text: string): Record<string, string | string[]> {
  // No prototype: a field named `__proto__` stays a plain field.
  const form: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    const seen = form[name];
    form[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return form;
}

/** The notification's parameters: the query string, overlaid by a form (or JSON object) body. */
function notificationParams(request: FastifyRequest): Record<string, unknown> {
  const query = (request.query ?? {}) as Record<string, unknown>;
  const body = request.body;
  if (body === undefined || body === null || body === '') return { ...query };
  if (typeof body === 'object' && !Array.isArray(body))
    return { ...query, ...(body as Record<string, unknown>) };
  return { ...query, body };
}

/**
 * Online top-up with Epay (易支付):
 * - POST /api/user/amount {amount} → `data` is the payable sum (`"21.90"`);
 * - POST /api/user/pay {amount, payment_method} → a pending order, `data` the signed form fields
 *   and `url` the Epay page the console posts them to;
 * - GET or POST /api/user/epay/notify (public) → Epay's payment notification, answered with the
 *   plain text `success` or `fail` (see handleEpayNotification for the checks and exactly-once).
 * Successful replies carry both `success: true` (this console) and `message: "success"` (what the
 * reference's clients test); refusals are the usual `{success: false, message}` envelope.
 */
export async function walletRoutes(app: FastifyInstance): Promise<void> {
  const topUps = new TopUpRepository(app.services.database);
  const guarded = { onRequest: requireUser };

  app.post('/user/amount', { ...guarded, schema: { body: TopUpAmountBody } }, async (request) => {
    const { amount } = request.body as TopUpAmountBody;
    const quote = quoteForUser(app.services, currentUser(request), amount);
    return { success: true, message: 'success', data: quote.money };
  });

  app.post('/user/pay', { ...guarded, schema: { body: TopUpPayBody } }, async (request) => {
    const order = await createTopUpOrder(
      app.services,
      topUps,
      currentUser(request),
      request.body as TopUpPayBody,
    );
    const answer: TopUpPayReply = { success: true, message: 'success', data: order.form, url: order.url };
    return answer;
  });

  await app.register(async (notify) => {
    const answer = (reply: FastifyReply, body: NotifyAnswer) =>
      reply.code(200).type('text/plain; charset=utf-8').send(body);
    // Form bodies (and text bodies holding a form, as some Epay servers send them).
    notify.addContentTypeParser(
      ['application/x-www-form-urlencoded', 'text/plain'],
      { parseAs: 'string', bodyLimit: NOTIFY_BODY_LIMIT },
      (_request, body, done) => done(null, parseForm(body as string)),
    );
    // Whatever goes wrong (unreadable body, database down), Epay gets `fail` and retries later.
    notify.setErrorHandler((error, request, reply) => {
      request.log.warn({ err: error }, 'epay notification failed');
      return answer(reply, 'fail');
    });
    const handle = async (request: FastifyRequest, reply: FastifyReply) =>
      answer(
        reply,
        await handleEpayNotification(app.services, topUps, notificationParams(request), request.log),
      );
    notify.get('/user/epay/notify', handle);
    notify.post('/user/epay/notify', { bodyLimit: NOTIFY_BODY_LIMIT }, handle);
  });
}
