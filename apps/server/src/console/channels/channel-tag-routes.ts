import { ChannelStatus } from '@switchyard/shared';
import type { FastifyInstance } from 'fastify';
import { requireAdmin } from '../../auth/guards.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { invalidRequest } from '../../errors/gateway-error.ts';
import { ok } from '../envelope.ts';
import {
  type ChannelBatchBody,
  ChannelBatchBody as ChannelBatchBodySchema,
  type ChannelBatchTagBody,
  ChannelBatchTagBody as ChannelBatchTagBodySchema,
  type ChannelTagBody,
  ChannelTagBody as ChannelTagBodySchema,
  type ChannelTagEditBody,
  ChannelTagEditBody as ChannelTagEditBodySchema,
} from './channel-operation-schemas.ts';
import {
  batchTagInput,
  requireTag,
  SELECT_CHANNELS_FOR_DELETE,
  tagEditChanges,
} from './channel-tag-rules.ts';

/**
 * Bulk channel changes (admin): tags, batch delete, delete disabled, abilities repair. Each reply's
 * `data` is the number of channels affected; every change publishes `channels` so routing on
 * every node follows at once.
 */
export async function channelTagRoutes(app: FastifyInstance): Promise<void> {
  const { channels, bus } = app.services;
  const guarded = { onRequest: requireAdmin };
  const changed = (count: number) => {
    if (count > 0) bus.publish('channels', '');
    return ok(count);
  };

  /** Deletes every channel disabled by hand (2) or automatically (3). */
  app.delete('/channel/disabled', guarded, async () =>
    changed(await channels.deleteByStatus([ChannelStatus.ManuallyDisabled, ChannelStatus.AutoDisabled])),
  );

  /** Deletes the channels named; `data` counts the ones that existed. */
  app.post('/channel/batch', { ...guarded, schema: { body: ChannelBatchBodySchema } }, async (request) => {
    const ids = (request.body as ChannelBatchBody).ids ?? [];
    if (ids.length === 0) throw invalidRequest(SELECT_CHANNELS_FOR_DELETE);
    return changed(await channels.deleteMany(ids));
  });

  /** Rebuilds every channel's abilities rows and drops rows of deleted channels; `data` = channels rebuilt. */
  app.post('/channel/fix', guarded, async () => {
    const count = await channels.fixAbilities();
    bus.publish('channels', '');
    return ok(count);
  });

  /** Edits every channel of a tag (see tagEditChanges for the overwrite rules). */
  app.put('/channel/tag', { ...guarded, schema: { body: ChannelTagEditBodySchema } }, async (request) => {
    const { tag, changes } = tagEditChanges(request.body as ChannelTagEditBody);
    let ids: number[];
    try {
      ids = await channels.updateByTag(tag, changes);
    } catch (error) {
      if (isUniqueViolation(error)) throw invalidRequest('某些模型已存在！');
      throw error;
    }
    if (ids.length === 0) throw invalidRequest('没有使用该标签的渠道');
    return changed(ids.length);
  });

  const setTagStatus = (status: number) => async (request: { body: unknown }) => {
    const tag = requireTag((request.body as ChannelTagBody).tag);
    const ids = await channels.setStatusByTag(tag, status);
    if (ids.length === 0) throw invalidRequest('没有使用该标签的渠道');
    return changed(ids.length);
  };
  app.post(
    '/channel/tag/enabled',
    { ...guarded, schema: { body: ChannelTagBodySchema } },
    setTagStatus(ChannelStatus.Enabled),
  );
  app.post(
    '/channel/tag/disabled',
    { ...guarded, schema: { body: ChannelTagBodySchema } },
    setTagStatus(ChannelStatus.ManuallyDisabled),
  );

  /** Sets one tag on the channels named; `data` counts the ones that existed. */
  app.post(
    '/channel/batch/tag',
    { ...guarded, schema: { body: ChannelBatchTagBodySchema } },
    async (request) => {
      const { ids, tag } = batchTagInput(request.body as ChannelBatchTagBody);
      return changed((await channels.setTagMany(ids, tag)).length);
    },
  );
}
