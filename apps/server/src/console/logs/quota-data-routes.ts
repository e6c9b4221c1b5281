import { QUOTA_DATA_SELF_MAX_SPAN, QuotaDataQuery, queryInteger } from '@switchyard/shared';
import type { FastifyInstance } from 'fastify';
import { currentUser, requireAdmin, requireUser } from '../../auth/guards.ts';
import { invalidRequest } from '../../errors/gateway-error.ts';
import { unflushedWhere, withUnflushedRows, withUnflushedSums } from '../../logs/quota-data-live.ts';
import { QuotaDataReader } from '../../logs/quota-data-reader.ts';
import { slotOfQuery } from '../../logs/quota-data-slots.ts';
import { ok } from '../envelope.ts';

/** The [start, end] range of a query: end defaults to now, start to 30 days before the end. */
function rangeOf(query: QuotaDataQuery): { start: number; end: number } {
  const end = queryInteger(query.end_timestamp) || Math.floor(Date.now() / 1000);
  const start = queryInteger(query.start_timestamp) || Math.max(0, end - QUOTA_DATA_SELF_MAX_SPAN);
  return { start, end };
}

/**
 * Dashboard data (quota_data, hourly buckets written by the QuotaDataRecorder):
 * - `GET /api/data/` (admin): sums per model and hour over all users (QuotaDataBucket[], from
 *   quota_data_models); with `username=` that user's own buckets (QuotaDataRow[]).
 * - `GET /api/data/self`: the caller's buckets (QuotaDataRow[]); the span may not exceed 30 days.
 * With `default_time` day or week and a `utc_offset`, the hours are summed into local days
 * (`quota-data-slots.ts`). Each answer adds the increments this node recorded and has not flushed yet, so the current
 * period shows at once; other nodes' unflushed increments appear after their next flush
 * (DataExportInterval minutes).
 */
export async function quotaDataRoutes(app: FastifyInstance): Promise<void> {
  const quotaData = new QuotaDataReader(app.services.database);
  const recorder = app.services.quotaData;
  const inRange = (start: number, end: number) =>
    unflushedWhere(recorder.unflushed(), (i) => i.createdAt >= start && i.createdAt <= end);

  app.get('/data/', { onRequest: requireAdmin, schema: { querystring: QuotaDataQuery } }, async (request) => {
    const query = request.query as QuotaDataQuery;
    const { start, end } = rangeOf(query);
    const slot = slotOfQuery(query.default_time, query.utc_offset);
    const username = query.username?.trim() ?? '';
    if (username !== '') {
      const rows = await quotaData.listByUsername(username, start, end, slot);
      return ok(
        withUnflushedRows(
          rows,
          unflushedWhere(inRange(start, end), (i) => i.username === username),
          slot,
        ),
      );
    }
    const sums = await quotaData.sumByModel(start, end, slot);
    return ok(withUnflushedSums(sums, inRange(start, end), slot));
  });

  app.get(
    '/data/self',
    { onRequest: requireUser, schema: { querystring: QuotaDataQuery } },
    async (request) => {
      const query = request.query as QuotaDataQuery;
      const { start, end } = rangeOf(query);
      if (end - start > QUOTA_DATA_SELF_MAX_SPAN) throw invalidRequest('时间跨度不能超过 1 个月');
      const slot = slotOfQuery(query.default_time, query.utc_offset);
      const userId = currentUser(request).id;
      const rows = await quotaData.listByUser(userId, start, end, slot);
      return ok(
        withUnflushedRows(
          rows,
          unflushedWhere(inRange(start, end), (i) => i.userId === userId),
          slot,
        ),
      );
    },
  );
}
