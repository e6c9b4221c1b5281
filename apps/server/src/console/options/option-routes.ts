import { type Static, Type } from '@sinclair/typebox';
import { QueryInteger, queryInteger } from '@switchyard/shared';
import type { FastifyInstance } from 'fastify';
import { requireAdmin, requireRoot } from '../../auth/guards.ts';
import { DEFAULT_PRICE_OPTIONS } from '../../billing/pricing/default-ratios.ts';
import { invalidRequest } from '../../errors/gateway-error.ts';
import { isSecretOptionKey } from '../../options/option-defaults.ts';
import { ok } from '../envelope.ts';

/**
 * PUT /api/option/ `{key, value}`. A missing `value` saves '' as the reference's decoder leaves
 * it (its console's Telegram save sends no value for a secret it never loaded).
 */
const OptionUpdateBody = Type.Object({
  key: Type.String({ minLength: 1, maxLength: 191 }),
  value: Type.Optional(Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()])),
});

/** While one clear runs, a clear before another time is refused. */
export const CLEAR_BUSY_MESSAGE = '已有日志清理正在进行，请等待其完成';
/** The message of a clear that goes on in the background after the answer. */
export const CLEAR_RUNNING_MESSAGE = '日志清理仍在后台进行';
/**
 * How long a clear's answer waits for its end. The reference answers when its one DELETE is done,
 * and its console shows the count as the total cleared; reverse proxies commonly end a request
 * after 60 s, so a longer clear answers before that with the count so far.
 */
export const CLEAR_ANSWER_WAIT_MS = 30_000;

const ClearQuery = Type.Object({
  target_timestamp: QueryInteger(),
  /** `true`: answer after the first batch (Switchyard's console follows clear_progress). */
  background: Type.Optional(Type.String({ maxLength: 10 })),
});
type ClearQuery = Static<typeof ClearQuery>;

/** Site options (root only) and old-log clearing (admin). */
export async function optionRoutes(app: FastifyInstance): Promise<void> {
  const { options, logCleaner } = app.services;
  // A clear's waiting answer is given at once when the server starts closing, so it never holds
  // up a shutdown (the clear itself is stopped with the cleaner).
  let closing!: () => void;
  const closed = new Promise<void>((resolve) => {
    closing = resolve;
  });
  app.addHook('preClose', async () => closing());

  app.get('/option/', { onRequest: requireRoot }, async () =>
    ok(
      options
        .entries()
        .filter(([key]) => !isSecretOptionKey(key))
        .map(([key, value]) => ({ key, value })),
    ),
  );

  app.put('/option/', { onRequest: requireRoot, schema: { body: OptionUpdateBody } }, async (request) => {
    const { key, value = '' } = request.body as { key: string; value?: unknown };
    const result = await options.set(key, value);
    if (!result.ok) throw invalidRequest(result.message);
    return ok();
  });

  // Restores the four price tables the ratio editor shows from the built-in model catalogue
  // (the reference resets ModelRatio alone, which left new models without their completion and
  // cache ratios).
  app.post('/option/rest_model_ratio', { onRequest: requireRoot }, async () => {
    for (const [key, table] of Object.entries(DEFAULT_PRICE_OPTIONS)) {
      await options.persist(key, JSON.stringify(table));
    }
    return ok(undefined, '重置模型倍率成功');
  });

  app.delete(
    '/log/',
    {
      onRequest: requireAdmin,
      schema: { querystring: ClearQuery },
    },
    async (request) => {
      const query = request.query as ClearQuery;
      const target = queryInteger(query.target_timestamp);
      if (target <= 0) throw invalidRequest('target timestamp is required');
      // The clear runs in batches (logs/retention/). The answer comes at its end, as the
      // reference's does, or after CLEAR_ANSWER_WAIT_MS (after the first batch with
      // `background=true`), with the rows deleted so far as `data`.
      const ms = query.background === 'true' ? 0 : CLEAR_ANSWER_WAIT_MS;
      const progress = await logCleaner.startClear(target, { ms, until: closed });
      if (!progress) throw invalidRequest(CLEAR_BUSY_MESSAGE);
      if (progress.state === 'failed') throw invalidRequest(progress.message);
      return ok(progress.deleted, progress.state === 'running' ? CLEAR_RUNNING_MESSAGE : '');
    },
  );

  // The latest clear on this node: state, rows deleted so far, its time (logs/retention/clear-run.ts).
  app.get('/log/clear_progress', { onRequest: requireAdmin }, async () => ok(logCleaner.clearProgress()));
}
