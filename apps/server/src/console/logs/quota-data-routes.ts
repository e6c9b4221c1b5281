import { QUOTA_DATA_SELF_MAX_SPAN, QuotaDataQuery, queryInteger } from '@switchyard/shared';
import type { FastifyInstance } from 'fastify';
import { currentUser, requireAdmin, requireUser } from '../../auth/guards.ts';
import { invalidRequest } from '../../errors/gateway-error.ts';
import { QuotaDataRepository } from '../../logs/quota-data-repository.ts';
import { ok } from '../envelope.ts';

/** The [start, end] range of a query: end defaults to now, start to 30 days before the end. */
function rangeOf(query: QuotaDataQuery): { start: number; end: number } {
  const end = queryInteger(query.end_timestamp) || Math.floor(Date.now() / 1000);
  const start = queryInteger(query.start_timestamp) || Math.max(0, end - QUOTA_DATA_SELF_MAX_SPAN);
  return { start, end };
}

/**
 * Dashboard data (quota_data, hourly buckets written by the QuotaDataRecorder):
 * - `GET /api/data/` (admin): sums per model and hour over all users (QuotaDataBucket[]); with
 *   `username=` that user's own buckets (QuotaDataRow[]).
 * - `GET /api/data/self`: the caller's buckets (QuotaDataRow[]); the span may not exceed 30 days.
 * Buckets still in a node's memory appear after its next flush (DataExportInterval minutes).
 */
export async function quotaDataRoutes(app: FastifyInstance): Promise<void> {
  const quotaData = new QuotaDataRepository(app.services.database);

  app.get('/data/', { onRequest: requireAdmin, schema: { querystring: QuotaDataQuery } }, async (request) => {
    const query = request.query as QuotaDataQuery;
    const { start, end } = rangeOf(query);
    const username = query.username?.trim() ?? '';
    if (username !== '') return ok(await quotaData.listByUsername(username, start, end));
    return ok(await quotaData.sumByModelAndHour(start, end));
  });

  app.get(
    '/data/self',
    { onRequest: requireUser, schema: { querystring: QuotaDataQuery } },
    async (request) => {
      const { start, end } = rangeOf(request.query as QuotaDataQuery);
      if (end - start > QUOTA_DATA_SELF_MAX_SPAN) throw invalidRequest('时间跨度不能超过 1 个月');
      return ok(await quotaData.listByUser(currentUser(request).id, start, end));
    },
  );
}
