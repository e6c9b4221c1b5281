import {
  ErrorCode,
  LOG_RECENT_MAX_ROWS,
  LogFilterQuery,
  LogListQuery,
  type LogPage,
  LogSearchQuery,
  type LogStat,
  type LogView,
  TokenLogQuery,
  TokenStatus,
} from '@switchyard/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { currentUser, requireAdmin, requireUser } from '../../auth/guards.ts';
import type { LogFilter, LogRepository, LogRow } from '../../db/repositories/log-repository.ts';
import type { Database } from '../../db/schema.ts';
import { GatewayError } from '../../errors/gateway-error.ts';
import { sumLogs } from '../../logs/rollup/rollup-stat-query.ts';
import { parseRelayKey } from '../../relay/stages/authenticate-token.ts';
import { ok, readPaging } from '../envelope.ts';
import { readChannelNames } from './channel-names.ts';
import { logExportRoutes } from './log-export-routes.ts';
import { filterOf } from './log-filter-of.ts';
import { toAdminLogView, toSelfLogView, toTokenLogView } from './log-view.ts';
import { quotaDataRoutes } from './quota-data-routes.ts';

/** Seconds counted by the stat routes' rpm and tpm. */
const RATE_WINDOW_SECONDS = 60;

/** A list's filters: the stat filters plus an exact request id. */
function listFilterOf(query: LogListQuery, userId: number | null): LogFilter {
  const requestId = query.request_id?.trim() ?? '';
  return requestId === '' ? filterOf(query, userId) : { ...filterOf(query, userId), requestId };
}

/** The page fields of a list answer; `total_capped` is an extra field (new-api's console pages by `total`). */
function pageOf(
  items: LogView[],
  result: { total: number; capped: boolean },
  page: number,
  pageSize: number,
): LogPage {
  return { items, page, page_size: pageSize, total: result.total, total_capped: result.capped };
}

/** The quota sum from the aggregates (logs/rollup/), rpm and tpm from the last minute's rows. */
async function statOf(logs: LogRepository, logDb: Kysely<Database>, filter: LogFilter): Promise<LogStat> {
  const since = Math.floor(Date.now() / 1000) - RATE_WINDOW_SECONDS;
  const [sums, recent] = await Promise.all([sumLogs(logDb, filter), logs.recentConsumption(filter, since)]);
  return { quota: sums.quota, rpm: recent.requests, tpm: recent.tokens };
}

/** The token key of `GET /api/log/token`: `Authorization: Bearer sk-…`, else `?key=`. */
function readTokenKey(request: FastifyRequest): string {
  const header = request.headers.authorization;
  if (typeof header === 'string' && header.trim() !== '') {
    return (header.startsWith('Bearer ') ? header.slice(7) : header).trim();
  }
  return ((request.query as TokenLogQuery).key ?? '').trim();
}

const invalidTokenKey = () => new GatewayError(ErrorCode.TokenInvalid, '无效的令牌', { status: 401 });

/**
 * Usage logs: paginated lists and statistics for admins (every row) and users (own rows), the
 * keyword searches, and the per-token log for API-key holders. Logs may live in their own
 * database (LOG_SQL_DSN), so channel names are read from the main database separately (no JOIN).
 * Clearing old logs (`DELETE /api/log/`) lives with the options routes.
 */
export async function logRoutes(app: FastifyInstance): Promise<void> {
  const { logs, database, logDatabase, tokens } = app.services;
  const admin = { onRequest: requireAdmin };
  const user = { onRequest: requireUser };

  /** id → name of the channels the rows mention (deleted channels are absent). */
  const channelNamesOf = (rows: LogRow[]) =>
    readChannelNames(
      database.db,
      rows.map((row) => Number(row.channel_id)),
    );
  const adminViews = async (rows: LogRow[]) => {
    const names = await channelNamesOf(rows);
    return rows.map((row) => toAdminLogView(row, names));
  };

  app.get('/log/', { ...admin, schema: { querystring: LogListQuery } }, async (request) => {
    const query = request.query as LogListQuery;
    const { page, pageSize, offset } = readPaging(query);
    const result = await logs.listPage(listFilterOf(query, null), { offset, limit: pageSize });
    return ok(pageOf(await adminViews(result.items), result, page, pageSize));
  });

  app.get('/log/self', { ...user, schema: { querystring: LogListQuery } }, async (request) => {
    const query = request.query as LogListQuery;
    const { page, pageSize, offset } = readPaging(query);
    const result = await logs.listPage(listFilterOf(query, currentUser(request).id), {
      offset,
      limit: pageSize,
    });
    return ok(pageOf(result.items.map(toSelfLogView), result, page, pageSize));
  });

  app.get('/log/stat', { ...admin, schema: { querystring: LogFilterQuery } }, async (request) =>
    ok(await statOf(logs, logDatabase.db, filterOf(request.query as LogFilterQuery, null))),
  );

  app.get('/log/self/stat', { ...user, schema: { querystring: LogFilterQuery } }, async (request) =>
    ok(
      await statOf(logs, logDatabase.db, filterOf(request.query as LogFilterQuery, currentUser(request).id)),
    ),
  );

  app.get('/log/search', { ...admin, schema: { querystring: LogSearchQuery } }, async (request) => {
    const keyword = ((request.query as LogSearchQuery).keyword ?? '').trim();
    return ok(await adminViews(await logs.searchByKeyword(keyword, LOG_RECENT_MAX_ROWS)));
  });

  app.get('/log/self/search', { ...user, schema: { querystring: LogSearchQuery } }, async (request) => {
    const keyword = ((request.query as LogSearchQuery).keyword ?? '').trim();
    if (!/^\d{1,9}$/.test(keyword)) return ok([]);
    const rows = await logs.listRecent(
      { userId: currentUser(request).id, type: Number(keyword) || -1 },
      LOG_RECENT_MAX_ROWS,
    );
    return ok(rows.map(toSelfLogView));
  });

  /**
   * The logs of one token for whoever holds its key (the reference serves every row to anyone
   * with the key in the query; here the newest LOG_RECENT_MAX_ROWS, without admin data). Open to
   * other origins as in the reference: the key, not a cookie, is the credential.
   */
  app.get('/log/token', { schema: { querystring: TokenLogQuery } }, async (request, reply) => {
    reply.header('access-control-allow-origin', '*');
    const raw = readTokenKey(request);
    if (raw === '' || raw.length > 200) throw invalidTokenKey();
    const { key } = parseRelayKey(raw);
    const token = key === '' ? undefined : await tokens.findByKey(key);
    if (!token || token.status === TokenStatus.Disabled) throw invalidTokenKey();
    const rows = await logs.listRecent({ tokenId: token.id, userId: token.user_id }, LOG_RECENT_MAX_ROWS);
    return ok(rows.map(toTokenLogView));
  });

  app.options('/log/token', async (_request, reply) =>
    reply
      .code(204)
      .header('access-control-allow-origin', '*')
      .header('access-control-allow-methods', 'GET, OPTIONS')
      .header('access-control-allow-headers', 'Authorization')
      .header('access-control-max-age', '86400')
      .send(),
  );

  await app.register(quotaDataRoutes);
  await app.register(logExportRoutes);
}
