import { ChannelStatus, LogType } from '@switchyard/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { AppServices } from '../app-services.ts';
import { computeQuota } from '../billing/pricing/compute-quota.ts';
import { lookUpPrice } from '../billing/pricing/price-book.ts';
import type { ChannelRow } from '../db/repositories/channel-repository.ts';
import { invalidRequest } from '../errors/gateway-error.ts';
import { priceTablesOf } from '../relay/stages/price-request.ts';
import { slownessReason } from './channel-health.ts';
import { type ChannelHealthService, channelHealthOf } from './channel-health-service.ts';
import { type ChannelTestCallResult, chooseTestModel, runChannelTest } from './channel-tester.ts';

/** Who a test's consume log row is written for (the calling admin; user 1 for the monitor). */
export interface TestActor {
  id: number;
  username: string;
  group: string;
}

/** The reply of one channel test. */
export interface ChannelTestReport {
  success: boolean;
  message: string;
  /** Seconds (float), as the reference reports it. */
  time: number;
  model: string;
  /** The automatic status change the test caused, if any. */
  statusChange: 'disabled' | 'enabled' | null;
}

export const TEST_IN_PROGRESS_MESSAGE = '渠道测试正在进行中，请稍后再试';
export const TEST_ALL_RUNNING_MESSAGE = '测试已在运行中';
/** Token name and content of a test's consume log row (reference §4.11). */
export const TEST_LOG_NAME = '模型测试';

const unixNow = () => Math.floor(Date.now() / 1000);

function failureMessage(result: ChannelTestCallResult): string | undefined {
  if (result.localError !== undefined) return result.localError;
  const failure = result.failure;
  if (!failure) return undefined;
  return failure.status > 0 ? `status code ${failure.status}: ${failure.message}` : failure.message;
}

/**
 * Runs channel tests: one channel on demand, or every enabled and automatically disabled channel
 * in the background (one such run at a time; the manual button and the periodic monitor share
 * it). A channel is never tested twice at once. Each test records `test_time` and
 * `response_time`, feeds channel health, and writes a consume log row (token name 模型测试,
 * computed quota, nothing deducted).
 */
export class ChannelTestRunner {
  private readonly busy = new Set<number>();
  private allRun: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly services: AppServices,
    private readonly health: ChannelHealthService,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Tests one channel now. Throws when the channel is already being tested. */
  async testOne(channel: ChannelRow, requestedModel: string | undefined, actor: TestActor | null) {
    if (this.busy.has(channel.id)) throw invalidRequest(TEST_IN_PROGRESS_MESSAGE);
    this.busy.add(channel.id);
    try {
      return await this.run(channel, requestedModel, actor);
    } finally {
      this.busy.delete(channel.id);
    }
  }

  /**
   * Starts a background test of every channel with status 1 or 3 (manually disabled channels are
   * skipped: they are never re-enabled automatically). False when a run is already going.
   */
  startAll(actor: TestActor | null, options: { notify: boolean }): boolean {
    if (this.allRun || this.stopped) return false;
    this.allRun = this.runAll(actor, options.notify)
      .catch((error: unknown) => this.log.error({ err: error }, 'channel test run failed'))
      .finally(() => {
        this.allRun = null;
      });
    return true;
  }

  /** True while a test-all run is going. */
  get running(): boolean {
    return this.allRun !== null;
  }

  /** Resolves when no test-all run is going. */
  async idle(): Promise<void> {
    while (this.allRun) await this.allRun;
  }

  /** Stops after the channel being tested and waits for it. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.idle();
  }

  private async runAll(actor: TestActor | null, notify: boolean): Promise<void> {
    const ids = (await this.services.channels.listTestable()).map((row) => row.id);
    let tested = 0;
    for (const id of ids) {
      if (this.stopped) return;
      if (this.busy.has(id)) continue;
      // Re-read: the channel may have changed (or gone) since the run started.
      const channel = await this.services.channels.findById(id);
      if (!channel || channel.status === ChannelStatus.ManuallyDisabled) continue;
      try {
        await this.testOne(channel, undefined, actor);
        tested++;
      } catch (error) {
        this.log.warn({ err: error, channel: id }, 'channel test failed to run');
      }
    }
    if (notify) this.log.info({ notification: 'channel_test', tested }, '通道测试完成');
  }

  private async run(
    channel: ChannelRow,
    requestedModel: string | undefined,
    actor: TestActor | null,
  ): Promise<ChannelTestReport> {
    const { channels, relay } = this.services;
    const model = chooseTestModel(channel, requestedModel);
    const result = await runChannelTest(channel, model, relay.upstream, undefined, relay.providerSettings());
    await channels.recordTest(channel.id, result.responseMs, unixNow());
    const outcome = await this.health.applyTestOutcome(channel, {
      failure: result.failure,
      localError: result.localError,
      responseMs: result.responseMs,
    });
    const statusChange = !outcome.applied
      ? null
      : outcome.action === 'disable'
        ? 'disabled'
        : outcome.action === 'enable'
          ? 'enabled'
          : null;
    if (result.usage && actor) this.writeConsumeLog(channel, result, actor);
    const time = result.responseMs / 1000;
    let message = failureMessage(result) ?? slownessReason(this.health.settings(), result.responseMs);
    if (message !== undefined && statusChange === 'disabled') message = `${message}，渠道已被自动禁用`;
    return { success: message === undefined, message: message ?? '', time, model, statusChange };
  }

  private writeConsumeLog(channel: ChannelRow, result: ChannelTestCallResult, actor: TestActor): void {
    const { options, relay } = this.services;
    if (!options.getBoolean('LogConsumeEnabled') || !result.usage) return;
    const price = lookUpPrice(priceTablesOf(options), result.model, actor.group, false);
    const quota = price ? computeQuota(price, result.usage, options.getNumber('QuotaPerUnit')) : 0;
    const other: Record<string, unknown> = {
      frt: -1000,
      model_ratio: price?.modelRatio ?? 0,
      group_ratio: price?.groupRatio ?? 1,
      completion_ratio: price?.completionRatio ?? 1,
      model_price: price?.modelPrice ?? -1,
      channel_test: true,
      admin_info: { use_channel: [String(channel.id)] },
    };
    if (result.upstreamModel && result.upstreamModel !== result.model) {
      other.is_model_mapped = true;
      other.upstream_model_name = result.upstreamModel;
    }
    // Every column is given (see ChannelHealthService.record: batches must name the same columns).
    relay.logWriter.write({
      type: LogType.Consume,
      user_id: actor.id,
      username: actor.username,
      token_id: 0,
      token_name: TEST_LOG_NAME,
      model_name: result.model,
      quota,
      prompt_tokens: result.usage.promptTokens,
      completion_tokens: result.usage.completionTokens,
      use_time: Math.round(result.responseMs / 1000),
      is_stream: 0,
      channel_id: channel.id,
      group: actor.group,
      ip: '',
      content: price ? TEST_LOG_NAME : `${TEST_LOG_NAME}，模型未配置价格`,
      other: JSON.stringify(other),
    });
  }
}

const instances = new WeakMap<object, ChannelTestRunner>();

/** The test runner of an app (one per `AppServices`), shared by the routes and the monitor. */
export function channelTestRunnerOf(services: AppServices, log: FastifyBaseLogger): ChannelTestRunner {
  let runner = instances.get(services);
  if (!runner) {
    runner = new ChannelTestRunner(services, channelHealthOf(services, log), log);
    instances.set(services, runner);
  }
  return runner;
}
