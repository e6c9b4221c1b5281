import { ChannelStatus, isRootRole } from '@switchyard/shared';
import type { FastifyInstance } from 'fastify';
import { currentUser, requireAdmin } from '../../auth/guards.ts';
import { BalanceError, runBalanceUpdate, updateChannelBalance } from '../../channels/channel-balance.ts';
import { channelHealthOf } from '../../channels/channel-health-service.ts';
import { channelTestRunnerOf, TEST_ALL_RUNNING_MESSAGE } from '../../channels/channel-tester-runner.ts';
import type { NewChannel } from '../../db/repositories/channel-repository.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { invalidRequest } from '../../errors/gateway-error.ts';
import { ok } from '../envelope.ts';
import { CHANNEL_KEY_MISSING } from './channel-key-destination.ts';
import { channelModelListRoutes } from './channel-model-list-routes.ts';
import {
  type ChannelCopyQuery,
  ChannelCopyQuery as ChannelCopyQuerySchema,
  ChannelIdParams,
  type ChannelTestQuery,
  ChannelTestQuery as ChannelTestQuerySchema,
} from './channel-operation-schemas.ts';
import { channelTagRoutes } from './channel-tag-routes.ts';

const NAME_MAX = 255;
const DEFAULT_COPY_SUFFIX = '_复制';
const channelMissing = () => invalidRequest('渠道不存在');
const COPY_WITHOUT_KEY = '已复制渠道；副本不含密钥，已禁用，请编辑副本填写密钥后再启用';

/**
 * Channel operations (admin): tests, balances, copy, plus the bulk tag and batch routes of
 * `channel-tag-routes.ts`.
 *
 * - `GET /channel/test/:id?model=` → `{success, message, time, data: {time, model, status_change}}`:
 *   one real call through the channel's adapter; `time` in seconds. Records test_time and
 *   response_time, feeds channel health (one fault or slowness disables an enabled channel, a pass
 *   re-enables an automatically disabled one), writes a consume log row for the caller (nothing is
 *   deducted). A channel already under test is refused. A call that succeeded but took longer than
 *   ChannelDisableThreshold seconds answers success:false with '响应时间 …s 超过阈值 …s'.
 * - `GET /channel/test` → starts testing every channel with status 1 or 3 in the background and
 *   answers at once; '测试已在运行中' while a run is going.
 * - `GET /channel/update_balance/:id` → `{success, message, balance, data: {balance}}`.
 * - `GET /channel/update_balance` → `data: {updated, failed, skipped, disabled}` (enabled channels).
 * - `POST /channel/copy/:id?suffix=_复制&reset_balance=true` → `data: {id}`: a copy named
 *   `<name><suffix>`, enabled, with test data and (unless reset_balance=false) balance and used
 *   quota reset. The root user's copy keeps the key and is enabled; an admin's copy has no key and
 *   is disabled until the admin enters one (the key follows its destination,
 *   `channel-key-destination.ts`), and the answer's message says so.
 */
export async function channelOperationRoutes(app: FastifyInstance): Promise<void> {
  const { services } = app;
  const { channels, bus } = services;
  const guarded = { onRequest: requireAdmin };
  const runner = () => channelTestRunnerOf(services, app.log);
  const health = () => channelHealthOf(services, app.log);
  const actorOf = (request: Parameters<typeof currentUser>[0]) => {
    const user = currentUser(request);
    return { id: user.id, username: user.username, group: user.group || 'default' };
  };

  app.get(
    '/channel/test/:id',
    { ...guarded, schema: { params: ChannelIdParams, querystring: ChannelTestQuerySchema } },
    async (request) => {
      const channel = await channels.findById((request.params as { id: number }).id);
      if (!channel) throw channelMissing();
      if (channel.key === '') throw invalidRequest(CHANNEL_KEY_MISSING);
      const { model } = request.query as ChannelTestQuery;
      const report = await runner().testOne(channel, model, actorOf(request));
      return {
        success: report.success,
        message: report.message,
        time: report.time,
        data: { time: report.time, model: report.model, status_change: report.statusChange },
      };
    },
  );

  app.get('/channel/test', guarded, async (request) => {
    if (!runner().startAll(actorOf(request), { notify: true }))
      throw invalidRequest(TEST_ALL_RUNNING_MESSAGE);
    return ok();
  });

  app.get(
    '/channel/update_balance/:id',
    { ...guarded, schema: { params: ChannelIdParams } },
    async (request) => {
      const channel = await channels.findById((request.params as { id: number }).id);
      if (!channel) throw channelMissing();
      let balance: number;
      try {
        balance = await updateChannelBalance(services, channel);
      } catch (error) {
        if (error instanceof BalanceError) throw invalidRequest(error.message);
        throw error;
      }
      return { success: true, message: '', balance, data: { balance } };
    },
  );

  app.get('/channel/update_balance', guarded, async () =>
    ok(await runBalanceUpdate(services, health(), app.log)),
  );

  app.post(
    '/channel/copy/:id',
    { ...guarded, schema: { params: ChannelIdParams, querystring: ChannelCopyQuerySchema } },
    async (request) => {
      const origin = await channels.findById((request.params as { id: number }).id);
      if (!origin) throw channelMissing();
      const query = request.query as ChannelCopyQuery;
      const suffix = query.suffix ?? DEFAULT_COPY_SUFFIX;
      const resetBalance = !['false', '0'].includes((query.reset_balance ?? 'true').toLowerCase());
      const { id: _id, created_time: _created, ...fields } = origin;
      // Only the root user's copy keeps the key; an admin's copy waits, disabled, for a key of its own.
      const keepsKey = isRootRole(currentUser(request).role);
      const copy: NewChannel = {
        ...fields,
        name: `${origin.name.slice(0, Math.max(0, NAME_MAX - suffix.length))}${suffix}`,
        key: keepsKey ? origin.key : '',
        status: keepsKey ? ChannelStatus.Enabled : ChannelStatus.ManuallyDisabled,
        other_info: null,
        test_time: 0,
        response_time: 0,
        ...(resetBalance ? { balance: 0, balance_updated_time: 0, used_quota: 0 } : {}),
      };
      let ids: number[];
      try {
        ids = await channels.createMany([copy]);
      } catch (error) {
        if (isUniqueViolation(error)) throw invalidRequest('某些模型已存在！');
        throw error;
      }
      const id = ids[0]!;
      bus.publish('channels', String(id));
      if (!keepsKey) return { success: true, message: COPY_WITHOUT_KEY, data: { id } };
      return ok({ id });
    },
  );

  await channelTagRoutes(app);
  await channelModelListRoutes(app);
}
