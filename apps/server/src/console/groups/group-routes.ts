import type { FastifyInstance } from 'fastify';
import { requireAdmin, requireUser, resolveConsoleUser } from '../../auth/guards.ts';
import { channelTypeDefaultModels } from '../../channels/channel-default-models.ts';
import { ok } from '../envelope.ts';
import { usableGroupsOf } from './usable-groups.ts';

/** Groups, usable groups and model lists. */
export async function groupRoutes(app: FastifyInstance): Promise<void> {
  const { options, database } = app.services;

  app.get('/group/', { onRequest: requireAdmin }, async () =>
    ok(Object.keys(options.getJson<Record<string, number>>('GroupRatio') ?? {})),
  );

  app.get('/user/self/groups', { onRequest: requireUser }, async (request) =>
    ok(usableGroupsOf(options, request.user?.group ?? null)),
  );

  app.get('/user/groups', async (request) => {
    const resolved = await resolveConsoleUser(request).catch(() => null);
    return ok(usableGroupsOf(options, resolved?.user.group ?? null));
  });

  app.get('/user/models', { onRequest: requireUser }, async (request) => {
    const groups = Object.keys(usableGroupsOf(options, request.user?.group ?? null));
    if (groups.length === 0) return ok([]);
    const rows = await database.db
      .selectFrom('abilities')
      .select('model')
      .distinct()
      .where('group', 'in', groups)
      .where('enabled', '=', 1)
      .orderBy('model')
      .execute();
    return ok(rows.map((row) => row.model));
  });

  app.get('/channel/models_enabled', { onRequest: requireAdmin }, async () => {
    const rows = await database.db
      .selectFrom('abilities')
      .select('model')
      .distinct()
      .where('enabled', '=', 1)
      .orderBy('model')
      .execute();
    return ok(rows.map((row) => row.model));
  });

  app.get('/models', { onRequest: requireUser }, async () => ok(channelTypeDefaultModels()));
}
