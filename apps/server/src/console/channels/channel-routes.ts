import { Type } from '@sinclair/typebox';
import {
  ChannelCreateBody,
  ChannelListQuery,
  ChannelSearchQuery,
  ChannelUpdateBody,
  isRootRole,
} from '@switchyard/shared';
import type { FastifyInstance } from 'fastify';
import { currentUser, requireAdmin } from '../../auth/guards.ts';
import type { ChannelFilter, ChannelListOptions } from '../../db/repositories/channel-repository.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { forbidden, invalidRequest } from '../../errors/gateway-error.ts';
import { ok, readPaging } from '../envelope.ts';
import {
  CHANNEL_KEY_MISSING,
  changedDestinationFields,
  KEY_REQUIRED_FOR_NEW_DESTINATION,
} from './channel-key-destination.ts';
import { channelChanges, channelsToCreate } from './channel-rules.ts';
import { toChannelView } from './channel-view.ts';
import { listKnownModels } from './known-models.ts';

const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });
const GetQuery = Type.Object({ with_key: Type.Optional(Type.String({ maxLength: 10 })) });

/** A query-string flag: 'true' or '1'. */
const flag = (value: string | undefined) => value === 'true' || value === '1';

/** Duplicate abilities rows: models equal under a case-insensitive MySQL collation. */
const duplicateModels = () => invalidRequest('某些模型已存在！');

/**
 * Channel management, CRUD part (admin only). Lists never carry keys; every change rebuilds the
 * channel's abilities rows (in the repository) and publishes `channels` with the channel id so
 * every node's routing index reloads.
 */
export async function channelRoutes(app: FastifyInstance): Promise<void> {
  const { channels, bus, options } = app.services;
  const guarded = { onRequest: requireAdmin };

  /**
   * Both list routes answer `data` as a bare array of one page, as the reference does (`p` from 0;
   * `page_size` 1..100, 10 by default on the list and 100 on the search, which the reference does
   * not page). With tag_mode the page is over tags: the channels of the page's tags, untagged ones
   * left out; clients group them.
   */
  const list = async (query: ChannelSearchQuery, filter: ChannelFilter, defaultSize: number) => {
    const { pageSize, offset } = readPaging(
      { p: query.p, page_size: query.page_size ?? defaultSize },
      { base: 0 },
    );
    const listOptions: ChannelListOptions = {
      filter,
      order: flag(query.id_sort) ? 'id' : 'priority',
      offset,
      limit: pageSize,
    };
    const rows = flag(query.tag_mode)
      ? await channels.listTagged(listOptions)
      : await channels.list(listOptions);
    return ok(rows.map((channel) => toChannelView(channel)));
  };

  app.get('/channel/', { ...guarded, schema: { querystring: ChannelListQuery } }, async (request) =>
    list(request.query as ChannelListQuery, {}, 10),
  );

  app.get('/channel/search', { ...guarded, schema: { querystring: ChannelSearchQuery } }, async (request) => {
    const query = request.query as ChannelSearchQuery;
    const group = query.group === 'null' ? '' : query.group;
    return list(query, { keyword: query.keyword, group, model: query.model }, 100);
  });

  app.get('/channel/models', guarded, async () => ok(listKnownModels(options)));

  /** One channel without its key; `?with_key=true` adds the key for the root user only. */
  app.get(
    '/channel/:id',
    { ...guarded, schema: { params: IdParams, querystring: GetQuery } },
    async (request) => {
      const withKey = flag((request.query as { with_key?: string }).with_key);
      if (withKey && !isRootRole(currentUser(request).role)) throw forbidden('仅超级管理员可以查看渠道密钥');
      const channel = await channels.findById((request.params as { id: number }).id);
      if (!channel) throw invalidRequest('渠道不存在');
      return ok(toChannelView(channel, withKey));
    },
  );

  app.post('/channel/', { ...guarded, schema: { body: ChannelCreateBody } }, async (request) => {
    const rows = channelsToCreate(request.body as ChannelCreateBody);
    let ids: number[];
    try {
      ids = await channels.createMany(rows);
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateModels();
      throw error;
    }
    for (const id of ids) bus.publish('channels', String(id));
    const created = await Promise.all(ids.map((id) => channels.findById(id)));
    return ok(created.flatMap((channel) => (channel ? [toChannelView(channel)] : [])));
  });

  app.put('/channel/', { ...guarded, schema: { body: ChannelUpdateBody } }, async (request) => {
    const body = request.body as ChannelUpdateBody;
    const current = await channels.findById(body.id);
    if (!current) throw invalidRequest('渠道不存在');
    const changes = channelChanges(body, current);
    if (changes.key === undefined) {
      if (current.key === '') throw invalidRequest(CHANNEL_KEY_MISSING);
      if (!isRootRole(currentUser(request).role) && changedDestinationFields(changes, current).length > 0)
        throw forbidden(KEY_REQUIRED_FOR_NEW_DESTINATION);
    }
    let updated: Awaited<ReturnType<typeof channels.update>>;
    try {
      updated = await channels.update(body.id, changes);
    } catch (error) {
      if (isUniqueViolation(error)) throw duplicateModels();
      throw error;
    }
    if (!updated) throw invalidRequest('渠道不存在');
    bus.publish('channels', String(updated.id));
    return ok(toChannelView(updated));
  });

  app.delete('/channel/:id', { ...guarded, schema: { params: IdParams } }, async (request) => {
    const id = (request.params as { id: number }).id;
    if (!(await channels.delete(id))) throw invalidRequest('渠道不存在');
    bus.publish('channels', String(id));
    return ok();
  });
}
