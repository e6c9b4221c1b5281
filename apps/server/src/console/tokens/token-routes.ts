import {
  TOKEN_CREATE_MAX_COUNT,
  TOKEN_SEARCH_MAX_ROWS,
  TokenCreateBody,
  type TokenCreated,
  TokenIdParams,
  type TokenKeyView,
  TokenListQuery,
  TokenSearchQuery,
  TokenUpdateBody,
  TokenUpdateQuery,
} from '@switchyard/shared';
import type { FastifyInstance } from 'fastify';
import { currentUser, requireUser } from '../../auth/guards.ts';
import { invalidRequest } from '../../errors/gateway-error.ts';
import { ok, readPaging } from '../envelope.ts';
import { fullTokenKey, stripKeyPrefix } from './token-key.ts';
import { createTokens, deleteToken, setTokenStatus, TOKEN_NOT_FOUND, updateToken } from './token-service.ts';
import { toTokenView } from './token-view.ts';

/** A status-only update is asked for by any non-empty `status_only` except `false` and `0`. */
const isStatusOnly = (value: string | undefined): boolean =>
  value !== undefined && value !== '' && value !== 'false' && value !== '0';

/**
 * Token management for the logged-in user. Every query is scoped to the caller: another user's
 * token id answers '令牌不存在' (admins included — these routes never show others' keys).
 *
 * Wire as the reference's: lists and search answer `data` as a bare array of one page (`p` from 0,
 * `size` 1..100); clients page by asking for the next page. Keys go out as stored (no `sk-`; the
 * owner's own keys): clients put `sk-` in front to copy or use them. The create reply and
 * POST /api/token/:id/key (not in the reference) give the full `sk-` key.
 *
 * Every change publishes `tokens:<id>` on the change bus so relay token caches drop the entry.
 */
export async function tokenRoutes(app: FastifyInstance): Promise<void> {
  const { tokens } = app.services;
  const guarded = { onRequest: requireUser };

  app.get('/token/', { ...guarded, schema: { querystring: TokenListQuery } }, async (request) => {
    const user = currentUser(request);
    const { pageSize, offset } = readPaging(request.query as TokenListQuery, { base: 0, sizeKey: 'size' });
    return ok((await tokens.listByUser(user.id, { offset, limit: pageSize })).map(toTokenView));
  });

  app.get('/token/search', { ...guarded, schema: { querystring: TokenSearchQuery } }, async (request) => {
    const user = currentUser(request);
    const query = request.query as TokenSearchQuery;
    const { pageSize, offset } = readPaging(
      { p: query.p, size: query.size ?? TOKEN_SEARCH_MAX_ROWS },
      { base: 0, sizeKey: 'size' },
    );
    const rows = await tokens.searchByUser(user.id, {
      name: query.keyword?.trim(),
      key: stripKeyPrefix(query.token ?? ''),
      offset,
      limit: pageSize,
    });
    return ok(rows.map(toTokenView));
  });

  app.get('/token/:id', { ...guarded, schema: { params: TokenIdParams } }, async (request) => {
    const token = await tokens.findOwned(currentUser(request).id, (request.params as { id: number }).id);
    if (!token) throw invalidRequest(TOKEN_NOT_FOUND);
    return ok(toTokenView(token));
  });

  app.post('/token/:id/key', { ...guarded, schema: { params: TokenIdParams } }, async (request) => {
    const token = await tokens.findOwned(currentUser(request).id, (request.params as { id: number }).id);
    if (!token) throw invalidRequest(TOKEN_NOT_FOUND);
    const view: TokenKeyView = { id: token.id, key: fullTokenKey(token.key) };
    return ok(view);
  });

  app.post('/token/', { ...guarded, schema: { body: TokenCreateBody } }, async (request) => {
    const result = await createTokens(app.services, currentUser(request), request.body as TokenCreateBody);
    const created: TokenCreated[] = result.tokens;
    const message = result.capped
      ? `单次最多创建 ${TOKEN_CREATE_MAX_COUNT} 个令牌，已创建 ${created.length} 个（请求 ${result.requested} 个）`
      : '';
    return ok(created, message);
  });

  app.put(
    '/token/',
    { ...guarded, schema: { body: TokenUpdateBody, querystring: TokenUpdateQuery } },
    async (request) => {
      const user = currentUser(request);
      const body = request.body as TokenUpdateBody;
      const updated = isStatusOnly((request.query as TokenUpdateQuery).status_only)
        ? await setTokenStatus(app.services, user, body.id, body.status)
        : await updateToken(app.services, user, body);
      return ok(toTokenView(updated));
    },
  );

  app.delete('/token/:id', { ...guarded, schema: { params: TokenIdParams } }, async (request) => {
    await deleteToken(app.services, currentUser(request), (request.params as { id: number }).id);
    return ok();
  });
}
