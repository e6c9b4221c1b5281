import { ChannelStatus, LogType } from '@switchyard/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { AppServices } from '../app-services.ts';
import type { ChannelRow } from '../db/repositories/channel-repository.ts';
import { redactCredentials } from '../lib/redact-credentials.ts';
import {
  FailureWindow,
  type HealthDecision,
  type HealthFailure,
  type HealthSettings,
  judgeFailure,
  judgeTestOutcome,
  parseDisableKeywords,
  type TestOutcome,
} from './channel-health.ts';

/** What the service needs of a channel to change its status and describe it. */
export interface HealthChannel {
  id: number;
  name: string;
}

/** Longest status reason stored in other_info. */
const MAX_REASON_CHARS = 1000;

const unixNow = () => Math.floor(Date.now() / 1000);

/**
 * Applies channel health decisions (see `channel-health.ts` for the rules): counts relay-path
 * faults per channel, disables (status 3) and re-enables (status 1) channels with a conditional
 * update, drops a disabled channel from this node's routing index at once and publishes
 * `channels` so every node rebuilds, writes a system log row (type 4) for every automatic status
 * change, and logs the `channel_update` notification (delivery is not built yet).
 * Relay failures are only counted on the response path; the database work is scheduled after it.
 */
export class ChannelHealthService {
  private readonly pending = new Set<Promise<unknown>>();
  private keywordSource = '';
  private keywordCache: string[] = [];

  constructor(
    private readonly services: Pick<AppServices, 'options' | 'channels' | 'bus' | 'relay'>,
    private readonly log: FastifyBaseLogger,
    readonly window: FailureWindow = new FailureWindow(),
    private readonly now: () => number = Date.now,
  ) {}

  /** The current option values (keyword lines parsed once per change of the option). */
  settings(): HealthSettings {
    const { options } = this.services;
    const text = options.get('AutomaticDisableKeywords');
    if (text !== this.keywordSource) {
      this.keywordSource = text;
      this.keywordCache = parseDisableKeywords(text);
    }
    return {
      autoDisable: options.getBoolean('AutomaticDisableChannelEnabled'),
      autoEnable: options.getBoolean('AutomaticEnableChannelEnabled'),
      disableThresholdSeconds: options.getNumber('ChannelDisableThreshold'),
      keywords: this.keywordCache,
    };
  }

  /**
   * A relay attempt failed on this channel. Synchronous and cheap: a fault is counted, and when
   * the channel reaches the threshold inside the window it leaves this node's routing index at
   * once while the status change itself is scheduled off the response path.
   */
  reportRelayFailure(channel: HealthChannel & { autoBan: boolean }, failure: HealthFailure): void {
    const decision = judgeFailure(this.settings(), channel.autoBan, failure);
    if (decision.action !== 'disable') return;
    const count = this.window.record(channel.id, this.now());
    if (!this.window.reached(count)) return;
    this.window.reset(channel.id);
    this.services.relay.channelIndex.exclude(channel.id);
    const minutes = Math.round(this.window.windowMs / 60_000);
    const reason = `${decision.reason}（${minutes} 分钟内连续失败 ${count} 次）`;
    this.schedule(() => this.disable(channel, reason));
  }

  /** A successful call on the channel: forget its faults. */
  recordSuccess(channelId: number): void {
    this.window.reset(channelId);
  }

  /**
   * Applies the verdict of an explicit test to the channel as it was read before the test:
   * one fault or slowness disables an enabled channel, a clean pass re-enables an automatically
   * disabled one. Returns the decision and whether the status actually changed.
   */
  async applyTestOutcome(
    channel: Pick<ChannelRow, 'id' | 'name' | 'status' | 'auto_ban'>,
    outcome: TestOutcome,
  ): Promise<HealthDecision & { applied: boolean }> {
    if (!outcome.failure && outcome.localError === undefined) this.window.reset(channel.id);
    const decision = judgeTestOutcome(
      this.settings(),
      { status: channel.status, autoBan: channel.auto_ban === 1 },
      outcome,
    );
    if (decision.action === 'disable')
      return { ...decision, applied: await this.disable(channel, decision.reason) };
    if (decision.action === 'enable') return { ...decision, applied: await this.enable(channel) };
    return { ...decision, applied: false };
  }

  /**
   * Disables an enabled channel automatically (status 3, other_info `{status_reason, status_time}`).
   * A channel that is not enabled (already disabled, by hand or automatically) is left alone.
   */
  async disable(channel: HealthChannel, reason: string): Promise<boolean> {
    const { channels, relay, bus } = this.services;
    relay.channelIndex.exclude(channel.id);
    const statusReason = reason.length > MAX_REASON_CHARS ? `${reason.slice(0, MAX_REASON_CHARS)}…` : reason;
    const otherInfo = JSON.stringify({ status_reason: statusReason, status_time: unixNow() });
    const changed = await channels.changeStatus(
      channel.id,
      [ChannelStatus.Enabled],
      ChannelStatus.AutoDisabled,
      otherInfo,
    );
    bus.publish('channels', String(channel.id));
    if (changed) {
      this.window.reset(channel.id);
      this.record(
        channel,
        ChannelStatus.AutoDisabled,
        `通道「${channel.name}」（#${channel.id}）已被自动禁用，原因：${statusReason}`,
      );
    }
    return changed;
  }

  /** Re-enables an automatically disabled channel (status 3 → 1); never a manually disabled one. */
  async enable(channel: HealthChannel): Promise<boolean> {
    const { channels, bus } = this.services;
    const otherInfo = JSON.stringify({ status_reason: '', status_time: unixNow() });
    const changed = await channels.changeStatus(
      channel.id,
      [ChannelStatus.AutoDisabled],
      ChannelStatus.Enabled,
      otherInfo,
    );
    if (!changed) return false;
    this.window.reset(channel.id);
    bus.publish('channels', String(channel.id));
    this.record(
      channel,
      ChannelStatus.Enabled,
      `通道「${channel.name}」（#${channel.id}）测试通过，已被自动启用`,
    );
    return true;
  }

  /** Waits for every scheduled status change (shutdown, tests). */
  async drain(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private schedule(task: () => Promise<unknown>): void {
    const run: Promise<unknown> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((error: unknown) => this.log.error({ err: error }, 'channel health update failed'))
      .finally(() => this.pending.delete(run));
    this.pending.add(run);
  }

  /** The system log row and the (logged) channel_update notification of an automatic status change. */
  private record(channel: HealthChannel, status: number, content: string): void {
    // Every column is given: the log writer inserts rows in batches, and a batch whose rows name
    // different columns fills the gaps with NULL on SQLite (NOT NULL columns then refuse it).
    this.services.relay.logWriter.write({
      type: LogType.System,
      user_id: 0,
      username: '',
      token_id: 0,
      token_name: '',
      model_name: '',
      quota: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
      use_time: 0,
      is_stream: 0,
      channel_id: channel.id,
      group: '',
      ip: '',
      // The reason quotes the upstream's message, which may carry a URL with the channel's key.
      content: redactCredentials(content),
      other: '',
    });
    const subject =
      status === ChannelStatus.Enabled
        ? `通道「${channel.name}」（#${channel.id}）已被启用`
        : `通道「${channel.name}」（#${channel.id}）已被禁用`;
    this.log.warn(
      {
        notification: 'channel_update',
        key: `channel_update_${channel.id}_${status}`,
        channel: channel.id,
        status,
      },
      `${subject}: ${content}`,
    );
  }
}

const instances = new WeakMap<object, ChannelHealthService>();

/**
 * The health service of an app (one per `AppServices`, created on first use). The relay handler,
 * the console routes and the background monitor share it, so fault counts are per node.
 */
export function channelHealthOf(services: AppServices, log: FastifyBaseLogger): ChannelHealthService {
  let service = instances.get(services);
  if (!service) {
    service = new ChannelHealthService(services, log);
    instances.set(services, service);
  }
  return service;
}
