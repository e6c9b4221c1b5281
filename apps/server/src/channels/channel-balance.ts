import { getProviderAdapter, joinUrl, maskSensitive, parseOpenAIError } from '@switchyard/relay-kit';
import { channelTypeInfo } from '@switchyard/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { AppServices } from '../app-services.ts';
import type { ChannelRow } from '../db/repositories/channel-repository.ts';
import type { ChannelHealthService } from './channel-health-service.ts';
import { channelRuntimeOf } from './channel-runtime-of.ts';

/** Longest a balance request may take. */
export const BALANCE_TIMEOUT_MS = 15_000;
/** Channel updates running at once during an update-all. */
const BALANCE_CONCURRENCY = 4;

/** A balance could not be read; the message is safe to show to admins. */
export class BalanceError extends Error {
  override name = 'BalanceError';
}

type Fetch = typeof globalThis.fetch;

/** GETs a JSON object with the channel key as a bearer token; throws BalanceError otherwise. */
async function getJson(fetch: Fetch, url: string, key: string): Promise<Record<string, unknown>> {
  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      headers: { authorization: `Bearer ${key}`, accept: 'application/json' },
      signal: AbortSignal.timeout(BALANCE_TIMEOUT_MS),
    });
    text = await response.text();
  } catch (error) {
    const reason = (error as { name?: string }).name === 'TimeoutError' ? '请求超时' : '无法连接上游';
    throw new BalanceError(`获取余额失败：${reason}`);
  }
  if (!response.ok) {
    const failure = parseOpenAIError(response.status, text);
    throw new BalanceError(`获取余额失败：status code ${response.status}: ${failure.message}`);
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {
    // fall through
  }
  throw new BalanceError('获取余额失败：上游返回了无法解析的数据');
}

/** A finite number from a number or numeric string field; BalanceError otherwise. */
function numberField(value: unknown, field: string): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number))
    throw new BalanceError(`获取余额失败：上游返回的数据缺少 ${field}`);
  return number;
}

const datePart = (date: Date) => date.toISOString().slice(0, 10);

/**
 * OpenAI-style billing (types 1 and 8, reference §8.3): subscription `hard_limit_usd` minus the
 * usage since the start of the month (100 days back without a payment method), in USD.
 */
async function readOpenAIBalance(fetch: Fetch, base: string, key: string, now = new Date()): Promise<number> {
  const subscription = await getJson(fetch, joinUrl(base, '/v1/dashboard/billing/subscription'), key);
  const hardLimit = numberField(subscription.hard_limit_usd, 'hard_limit_usd');
  const start =
    subscription.has_payment_method === false
      ? datePart(new Date(now.getTime() - 100 * 86_400_000))
      : `${datePart(now).slice(0, 7)}-01`;
  const usage = await getJson(
    fetch,
    joinUrl(base, `/v1/dashboard/billing/usage?start_date=${start}&end_date=${datePart(now)}`),
    key,
  );
  return hardLimit - numberField(usage.total_usage, 'total_usage') / 100;
}

/** DeepSeek (type 43): `GET /user/balance` → the CNY `total_balance` (else the first entry). */
async function readDeepSeekBalance(fetch: Fetch, base: string, key: string): Promise<number> {
  const body = await getJson(fetch, joinUrl(base, '/user/balance'), key);
  const infos = Array.isArray(body.balance_infos)
    ? (body.balance_infos as Array<Record<string, unknown>>)
    : [];
  const info = infos.find((entry) => entry?.currency === 'CNY') ?? infos[0];
  return numberField(info?.total_balance, 'total_balance');
}

/** SiliconFlow (type 40): `GET /v1/user/info` → `data.totalBalance`. */
async function readSiliconFlowBalance(fetch: Fetch, base: string, key: string): Promise<number> {
  const body = await getJson(fetch, joinUrl(base, '/v1/user/info'), key);
  const data = body.data as Record<string, unknown> | undefined;
  return numberField(data?.totalBalance, 'totalBalance');
}

/**
 * Reads a channel's remaining upstream balance: the adapter's `fetchBalance` when it has one,
 * else the server's readers for OpenAI/custom (1, 8), SiliconFlow (40) and DeepSeek (43).
 * Unlike the reference (#1641), an empty or unparsable answer is an error, never a balance of 0.
 */
export async function readChannelBalance(
  channel: ChannelRow,
  fetch: Fetch = globalThis.fetch,
): Promise<number> {
  const adapter = getProviderAdapter(channel.type);
  if (adapter?.fetchBalance) {
    try {
      return await adapter.fetchBalance(channelRuntimeOf(channel), fetch);
    } catch (error) {
      throw new BalanceError(`获取余额失败：${maskSensitive((error as Error).message ?? String(error))}`);
    }
  }
  const base = channel.base_url || channelTypeInfo(channel.type)?.defaultBaseUrl || '';
  const key = channel.key.trim();
  switch (channel.type) {
    case 1:
    case 8:
      if (!base) throw new BalanceError('获取余额失败：渠道未设置地址');
      return readOpenAIBalance(fetch, base, key);
    case 40:
      return readSiliconFlowBalance(fetch, base || 'https://api.siliconflow.cn', key);
    case 43:
      return readDeepSeekBalance(fetch, base || 'https://api.deepseek.com', key);
    default:
      throw new BalanceError('尚未实现该渠道类型的余额查询');
  }
}

/** True when the channel type has a balance reader. */
export function hasBalanceReader(type: number): boolean {
  return Boolean(getProviderAdapter(type)?.fetchBalance) || [1, 8, 40, 43].includes(type);
}

/** Reads and stores one channel's balance (and its update time); returns it. */
export async function updateChannelBalance(services: Pick<AppServices, 'channels'>, channel: ChannelRow) {
  const balance = await readChannelBalance(channel);
  await services.channels.recordBalance(channel.id, balance, Math.floor(Date.now() / 1000));
  return balance;
}

/** The summary of an update-all run. */
export interface BalanceRunSummary {
  updated: number;
  failed: number;
  /** Channel types without a balance reader. */
  skipped: number;
  /** Channels disabled because their balance was 0 or less. */
  disabled: number;
}

/**
 * Updates the balance of every enabled channel. A channel whose balance reads 0 or less is
 * disabled automatically — only when AutomaticDisableChannelEnabled is on and its auto_ban is 1
 * (the reference disabled regardless, and also on unreadable answers).
 */
export async function updateAllBalances(
  services: Pick<AppServices, 'channels' | 'options'>,
  health: ChannelHealthService,
  log: FastifyBaseLogger,
): Promise<BalanceRunSummary> {
  const summary: BalanceRunSummary = { updated: 0, failed: 0, skipped: 0, disabled: 0 };
  const queue = await services.channels.listEnabled();
  const worker = async () => {
    for (let channel = queue.shift(); channel; channel = queue.shift()) {
      if (!hasBalanceReader(channel.type)) {
        summary.skipped++;
        continue;
      }
      let balance: number;
      try {
        balance = await updateChannelBalance(services, channel);
        summary.updated++;
      } catch (error) {
        summary.failed++;
        log.warn({ channel: channel.id, err: error }, 'channel balance update failed');
        continue;
      }
      const settings = health.settings();
      if (balance <= 0 && settings.autoDisable && channel.auto_ban === 1) {
        if (await health.disable(channel, `余额不足：${balance}`)) summary.disabled++;
      }
    }
  };
  await Promise.all(Array.from({ length: BALANCE_CONCURRENCY }, worker));
  return summary;
}

const runs = new WeakMap<object, Promise<BalanceRunSummary>>();

/**
 * Runs `updateAllBalances` unless a run is already going for this app, in which case the caller
 * joins it (the console button and the periodic monitor share one run).
 */
export function runBalanceUpdate(
  services: Pick<AppServices, 'channels' | 'options'>,
  health: ChannelHealthService,
  log: FastifyBaseLogger,
): Promise<BalanceRunSummary> {
  const running = runs.get(services);
  if (running) return running;
  const run = updateAllBalances(services, health, log).finally(() => runs.delete(services));
  runs.set(services, run);
  return run;
}

/** The run going for this app, if any (shutdown waits for it). */
export function currentBalanceRun(services: object): Promise<BalanceRunSummary> | undefined {
  return runs.get(services);
}
