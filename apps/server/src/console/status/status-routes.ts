import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { requireAdmin } from '../../auth/guards.ts';
import { ok } from '../envelope.ts';
import { buildPublicStatus } from './public-status.ts';

/** Public site status and content, plus the admin database check. */
export async function statusRoutes(app: FastifyInstance): Promise<void> {
  const { options } = app.services;

  app.get('/status', async () => ok(buildPublicStatus(app.services)));
  app.get('/notice', async () => ok(options.get('Notice')));
  app.get('/about', async () => ok(options.get('About')));
  app.get('/home_page_content', async () => ok(options.get('HomePageContent')));
  app.get('/setup', async () =>
    ok({ status: true, root_init: true, database_type: app.services.database.kind }),
  );

  let lastPing = 0;
  let lastPingResult = true;
  app.get('/status/test', { onRequest: requireAdmin }, async (_request, reply) => {
    const now = Date.now();
    if (now - lastPing > 10_000) {
      lastPing = now;
      lastPingResult = await sql`select 1`.execute(app.services.database.db).then(
        () => true,
        () => false,
      );
    }
    if (!lastPingResult) return reply.code(503).send({ success: false, message: '数据库连接失败' });
    return ok(undefined, '一切正常');
  });
}
