import { type PricingReply, UserStatus } from '@switchyard/shared';
import type { FastifyInstance } from 'fastify';
import { resolveConsoleUser } from '../../auth/guards.ts';
import { priceTablesOf } from '../../relay/stages/price-request.ts';
import { usableGroupsOf } from '../groups/usable-groups.ts';
import { PricingList } from './pricing-list.ts';

/**
 * The public pricing list (`GET /api/pricing`, shape in packages/shared pricing-schemas.ts). A
 * session or access token, when present and valid (user enabled), selects the caller's usable groups; a bad
 * or missing one is treated as anonymous (default groups), never as an error.
 */
export async function pricingRoutes(app: FastifyInstance): Promise<void> {
  const { options, database, bus } = app.services;
  const list = new PricingList(database, () => priceTablesOf(options));
  bus.subscribe((topic) => {
    if (topic === 'channels' || topic === 'options') list.invalidate();
  });

  app.get('/pricing', async (request): Promise<PricingReply> => {
    const resolved = await resolveConsoleUser(request).catch(() => null);
    const caller =
      resolved && resolved.user.deleted_at === null && resolved.user.status === UserStatus.Enabled
        ? resolved.user
        : null;
    const usable = usableGroupsOf(options, caller?.group ?? null);
    const groupRatio: Record<string, number> = {};
    const usableGroup: Record<string, string> = {};
    for (const [name, { ratio, desc }] of Object.entries(usable)) {
      groupRatio[name] = ratio;
      usableGroup[name] = desc;
    }
    return {
      success: true,
      message: '',
      data: await list.entries(),
      group_ratio: groupRatio,
      usable_group: usableGroup,
    };
  });
}
