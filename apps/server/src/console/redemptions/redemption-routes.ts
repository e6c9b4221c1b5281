import {
  RedeemBody,
  RedemptionCreateBody,
  RedemptionIdParams,
  RedemptionListQuery,
  type RedemptionPage,
  RedemptionSearchQuery,
  RedemptionUpdateBody,
  RedemptionUpdateQuery,
  type RedemptionView,
} from '@switchyard/shared';
import type { FastifyInstance } from 'fastify';
import { currentUser, requireAdmin, requireUser } from '../../auth/guards.ts';
import { RedemptionRepository, type RedemptionRow } from '../../db/repositories/redemption-repository.ts';
import { invalidRequest } from '../../errors/gateway-error.ts';
import { criticalRateLimit } from '../../rate-limit/rate-limit-hooks.ts';
import { ok, readPaging } from '../envelope.ts';
import { redeemCode } from './redeem-service.ts';
import {
  createRedemptions,
  deleteRedemption,
  REDEMPTION_NOT_FOUND,
  setRedemptionStatus,
  updateRedemption,
} from './redemption-service.ts';

const toView = ({ deleted_at: _deleted, ...view }: RedemptionRow): RedemptionView => view;

/** A status-only update is asked for by any non-empty `status_only` except `false` and `0`. */
const isStatusOnly = (value: string | undefined): boolean =>
  value !== undefined && value !== '' && value !== 'false' && value !== '0';

/**
 * Redemption codes. Management is admin-only (keys are shown in full to admins and to nobody
 * else); redeeming (`POST /api/user/topup`) is for any logged-in user, under the critical rate
 * limit. Lists page from `p` = 1 and answer `{items, total, page, page_size}`; deleted codes are
 * never shown. Create answers the list of new keys (the console offers them as a text file).
 */
export async function redemptionRoutes(app: FastifyInstance): Promise<void> {
  const redemptions = new RedemptionRepository(app.services.database);
  const admin = { onRequest: requireAdmin };

  const page = async (query: RedemptionSearchQuery) => {
    const { page: number, pageSize, offset } = readPaging(query);
    const result = await redemptions.search({ keyword: query.keyword, offset, limit: pageSize });
    const body: RedemptionPage = {
      items: result.items.map(toView),
      total: result.total,
      page: number,
      page_size: pageSize,
    };
    return ok(body);
  };

  app.get('/redemption/', { ...admin, schema: { querystring: RedemptionListQuery } }, async (request) => {
    const { p, page_size } = request.query as RedemptionListQuery;
    return page({ p, page_size });
  });

  app.get(
    '/redemption/search',
    { ...admin, schema: { querystring: RedemptionSearchQuery } },
    async (request) => page(request.query as RedemptionSearchQuery),
  );

  app.get('/redemption/:id', { ...admin, schema: { params: RedemptionIdParams } }, async (request) => {
    const row = await redemptions.findById((request.params as RedemptionIdParams).id);
    if (!row) throw invalidRequest(REDEMPTION_NOT_FOUND);
    return ok(toView(row));
  });

  app.post('/redemption/', { ...admin, schema: { body: RedemptionCreateBody } }, async (request) => {
    const keys = await createRedemptions(
      app.services,
      redemptions,
      currentUser(request),
      request.body as RedemptionCreateBody,
    );
    return ok(keys);
  });

  app.put(
    '/redemption/',
    { ...admin, schema: { body: RedemptionUpdateBody, querystring: RedemptionUpdateQuery } },
    async (request) => {
      const body = request.body as RedemptionUpdateBody;
      const row = isStatusOnly((request.query as RedemptionUpdateQuery).status_only)
        ? await setRedemptionStatus(redemptions, body.id, body.status)
        : await updateRedemption(redemptions, body);
      return ok(toView(row));
    },
  );

  app.delete('/redemption/:id', { ...admin, schema: { params: RedemptionIdParams } }, async (request) => {
    await deleteRedemption(redemptions, (request.params as RedemptionIdParams).id);
    return ok();
  });

  app.post(
    '/user/topup',
    { onRequest: [requireUser, criticalRateLimit], schema: { body: RedeemBody } },
    async (request) => {
      const { key } = request.body as RedeemBody;
      const quota = await redeemCode(app.services, redemptions, currentUser(request), key, request.log);
      return ok(quota);
    },
  );
}
