import { type Static, Type } from '@sinclair/typebox';
import { type ChannelRuntime, getProviderAdapter, maskSensitive } from '@switchyard/relay-kit';
import type { FastifyInstance } from 'fastify';
import { requireAdmin, requireRoot } from '../../auth/guards.ts';
import { channelRuntimeOf } from '../../channels/channel-runtime-of.ts';
import { invalidRequest } from '../../errors/gateway-error.ts';
import { ok } from '../envelope.ts';
import { ChannelIdParams } from './channel-operation-schemas.ts';

const FetchModelsBody = Type.Object({
  type: Type.Integer({ minimum: 0, maximum: 1000 }),
  key: Type.String({ maxLength: 65_536 }),
  base_url: Type.Optional(Type.String({ maxLength: 2048 })),
  other: Type.Optional(Type.String({ maxLength: 65_536 })),
});
type FetchModelsBody = Static<typeof FetchModelsBody>;

/** How long one model-list call may take. */
const FETCH_TIMEOUT_MS = 15_000;

/**
 * Asks the upstream which models a channel can use, through the type's adapter (`listModels`).
 * Multi-line keys (batch creation) use their first line. Errors come back as the console's
 * `{success:false, message}` with the upstream message masked.
 */
async function listUpstreamModels(
  channel: ChannelRuntime,
  settings: { fetch: typeof globalThis.fetch },
): Promise<string[]> {
  const adapter = getProviderAdapter(channel.type);
  if (!adapter?.listModels) throw invalidRequest(`渠道类型 ${channel.type} 不支持获取模型列表`);
  const key = (channel.key.split('\n').find((line) => line.trim() !== '') ?? '').trim();
  if (key === '') throw invalidRequest('请先填写密钥');
  const runtime: ChannelRuntime = { ...channel, key };
  const timedFetch: typeof globalThis.fetch = (url, init) =>
    settings.fetch(url, { ...init, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  try {
    const prepared = adapter.prepareChannel ? await adapter.prepareChannel(runtime, timedFetch) : runtime;
    const models = await adapter.listModels(prepared, timedFetch);
    return [...new Set(models)].sort();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw invalidRequest(`获取模型列表失败：${maskSensitive(message)}`);
  }
}

/**
 * `GET /channel/fetch_models/:id` (admin): the saved channel's upstream model list.
 * `POST /channel/fetch_models {type, key, base_url}` (root): the same for a channel being
 * edited. Root only, unlike the reference, because it sends requests to any URL (SSRF).
 */
export async function channelModelListRoutes(app: FastifyInstance): Promise<void> {
  const { channels, relay } = app.services;
  app.get(
    '/channel/fetch_models/:id',
    { onRequest: requireAdmin, schema: { params: ChannelIdParams } },
    async (request) => {
      const channel = await channels.findById((request.params as { id: number }).id);
      if (!channel) throw invalidRequest('渠道不存在');
      return ok(await listUpstreamModels(channelRuntimeOf(channel), relay));
    },
  );
  app.post(
    '/channel/fetch_models',
    { onRequest: requireRoot, schema: { body: FetchModelsBody } },
    async (request) => {
      const body = request.body as FetchModelsBody;
      const runtime: ChannelRuntime = {
        type: body.type,
        key: body.key,
        baseUrl: body.base_url?.trim() || undefined,
        other: body.other || undefined,
      };
      return ok(await listUpstreamModels(runtime, relay));
    },
  );
}
