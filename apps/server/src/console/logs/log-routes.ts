import {
  ErrorCode,
  LOG_RECENT_MAX_ROWS,
  LogFilterQuery,
  LogListQuery,
  LogSearchQuery,
  type LogStat,
  queryInteger,
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
import { toAdminLogView, toSelfLogView, toTokenLogView } from './log-view.ts';
import { quotaDataRoutes } from './quota-data-routes.ts';

/** Seconds counted by the stat routes' rpm and tpm. */
const RATE_WINDOW_SECONDS = 60;

/** The filters of a list or stat query; self routes drop username and channel and pin user_id. */
function filterOf(query: LogFilterQuery, userId: number | null): LogFilter {
  const filter: LogFilter = {
    type: queryInteger(query.type),
    tokenName: query.token_name?.trim() ?? '',
    modelName: query.model_name?.trim() ?? '',
    start: queryInteger(query.start_timestamp),
    end: queryInteger(query.end_timestamp),
    group: query.group?.trim() ?? '',
  };
  if (userId !== null) return { ...filter, userId };
  return { ...filter, username: query.username?.trim() ?? '', channelId: queryInteger(query.channel) };
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
  const channelNamesOf = async (rows: LogRow[]): Promise<Map<number, string>> => {
    const ids = [...new Set(rows.map((row) => Number(row.channel_id)).filter((id) => id > 0))];
    if (ids.length === 0) return new Map();
    const found = await database.db
      .selectFrom('channels')
      .select(['id', 'name'])
      .where('id', 'in', ids)
      .execute();
    return new Map(found.map((channel) => [Number(channel.id), channel.name]));
  };
  const adminViews = async (rows: LogRow[]) => {
    const names = await channelNamesOf(rows);
    return rows.map((row) => toAdminLogView(row, names));
  };

  app.get('/log/', { ...admin, schema: { querystring: LogListQuery } }, async (request) => {
    const query = request.query as LogListQuery;
    const { page, pageSize, offset } = readPaging(query);
    const result = await logs.listPage(filterOf(query, null), { offset, limit: pageSize });
    return ok({ items: await adminViews(result.items), page, page_size: pageSize, total: result.total });
  });

  app.get('/log/self', { ...user, schema: { querystring: LogListQuery } }, async (request) => {
    const query = request.query as LogListQuery;
    const { page, pageSize, offset } = readPaging(query);
    const result = await logs.listPage(filterOf(query, currentUser(request).id), { offset, limit: pageSize });
    return ok({ items: result.items.map(toSelfLogView), page, page_size: pageSize, total: result.total });
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
}
