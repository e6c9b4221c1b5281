import type { Readable } from 'node:stream';
import { ErrorCode, LogExportQuery, queryInteger, Role } from '@switchyard/shared';
import type { FastifyInstance } from 'fastify';
import { currentUser, requireRole } from '../../auth/guards.ts';
import { LogKeysetReader } from '../../db/repositories/log-keyset-reader.ts';
import { resolveLogFilter } from '../../db/repositories/resolve-log-filter.ts';
import { GatewayError } from '../../errors/gateway-error.ts';
import { metricsOf } from '../../observability/gateway-metrics.ts';
import { readChannelNames } from './channel-names.ts';
import { formatLocalTime } from './export/log-csv-columns.ts';
import { openLogCsv } from './export/log-csv-stream.ts';
import { filterOf } from './log-filter-of.ts';

const EXPORT_RUNNING = '已有一个日志导出正在进行，请等它完成后再试';

/** `logs-20261207-161340.csv`, at the export's UTC offset. */
function fileNameOf(nowSeconds: number, utcOffsetMinutes: number): string {
  const stamp = formatLocalTime(nowSeconds, utcOffsetMinutes).replaceAll('-', '').replaceAll(':', '');
  return `logs-${stamp.replace(' ', '-')}.csv`;
}

/**
 * `GET /api/log/export` (admin): the rows `GET /api/log/` lists for the same filters (resolved by
 * the list's own resolveLogFilter), every page, streamed as a CSV file (docs/console-wire.md). Refusals and a failing first query answer in the
 * `/api` envelope; once the file has started, a failure ends the download early.
 *
 * One export at a time per admin on each node: an export keeps a node serialising for as long as
 * the client reads, and a second one from the same admin is nearly always a double click or a
 * retry of a download still running. Exports still streaming when the app closes are cut, so a
 * slow download never holds up a shutdown.
 */
export async function logExportRoutes(app: FastifyInstance): Promise<void> {
  const { database, logDatabase } = app.services;
  const metrics = metricsOf(app.services);
  const reader = new LogKeysetReader(logDatabase.db);
  const source = { reader, channelNames: (ids: number[]) => readChannelNames(database.db, ids) };
  /** Admins with an export streaming from this node, and the streams. */
  const running = new Map<number, Readable>();

  app.addHook('preClose', async () => {
    for (const stream of running.values()) stream.destroy();
  });

  app.get(
    '/log/export',
    {
      onRequest: requireRole(Role.Admin, { userIdQuery: 'new_api_user' }),
      schema: { querystring: LogExportQuery },
      // Fastify answers HEAD by running the GET handler and draining its stream: a whole export
      // read for nothing. There is no HEAD for this route.
      exposeHeadRoute: false,
    },
    async (request, reply) => {
      const query = request.query as LogExportQuery;
      const adminId = currentUser(request).id;
      if (running.has(adminId)) {
        throw new GatewayError(ErrorCode.RequestRateLimited, EXPORT_RUNNING, { status: 429 });
      }
      const utcOffsetMinutes = queryInteger(query.utc_offset);
      const stream = await openLogCsv(source, {
        filter: await resolveLogFilter(logDatabase.db, filterOf(query, null)),
        utcOffsetMinutes,
        onBatch: (rows) => metrics.logExportRows(rows),
      });
      // Checked again: another request of this admin may have opened its export meanwhile.
      if (running.has(adminId)) {
        stream.destroy();
        throw new GatewayError(ErrorCode.RequestRateLimited, EXPORT_RUNNING, { status: 429 });
      }
      running.set(adminId, stream);
      metrics.logExportOpened();
      // The slot frees at the end of the file ('end', before the response ends) or when the
      // stream is destroyed (the client left, a query failed, the app closes): whichever is first.
      let open = true;
      const release = () => {
        if (!open) return;
        open = false;
        running.delete(adminId);
        metrics.logExportClosed();
      };
      stream.once('end', release).once('close', release);
      const fileName = fileNameOf(Math.floor(Date.now() / 1000), utcOffsetMinutes);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .header('x-content-type-options', 'nosniff')
        .send(stream);
    },
  );
}
