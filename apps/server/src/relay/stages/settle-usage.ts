import type { Usage } from '@switchyard/relay-kit';
import { LogType } from '@switchyard/shared';
import type { FastifyBaseLogger } from 'fastify';
import { type BilledUsage, computeQuota } from '../../billing/pricing/compute-quota.ts';
import type { RouteTarget } from '../../channels/channel-index.ts';
import type { NewLog } from '../../db/repositories/log-repository.ts';
import type { OptionStore } from '../../options/option-store.ts';
import type { RelayContext } from '../relay-context.ts';
import type { RelayRuntime } from '../relay-runtime.ts';
import { formatLogOther } from './log-other.ts';
import { priceTextsOf } from './price-texts.ts';
import { settleAndRecord } from './record-charge.ts';

/** How the call ended, as far as billing is concerned. */
export interface CallOutcome {
  channel: RouteTarget;
  upstreamModel: string;
  /** Upstream usage; undefined when the upstream sent none. */
  usage: Usage | undefined;
  /** Completion tokens counted locally from the delivered output (used when usage is missing). */
  localCompletionTokens: () => number;
  /** Something reached the client; when false the call is refunded, not billed. */
  delivered: boolean;
  stream: boolean;
  /** Milliseconds from the start to the first streamed event (-1000 for non-stream, as the reference). */
  firstResponseMs: number;
  /** Why the stream ended early, if it did (client abort, upstream cut). */
  interruption: string | undefined;
}

/**
 * A call's outcome, built in one place so every sender's has the same fields in the same order
 * (one hidden class).
 */
export function callOutcome(
  channel: RouteTarget,
  upstreamModel: string,
  usage: Usage | undefined,
  localCompletionTokens: () => number,
  delivered: boolean,
  stream: boolean,
  firstResponseMs: number,
  interruption: string | undefined,
): CallOutcome {
  return {
    channel,
    upstreamModel,
    usage,
    localCompletionTokens,
    delivered,
    stream,
    firstResponseMs,
    interruption,
  };
}

const toBilledUsage = (usage: Usage): BilledUsage => ({
  promptTokens: usage.inputTokens.total,
  completionTokens: usage.outputTokens.total,
  cachedTokens: usage.inputTokens.cacheRead,
  cacheWriteTokens: usage.inputTokens.cacheWrite,
});

/**
 * A stream that ended early may only have carried a running usage (Anthropic's `message_start`
 * reports 1 output token, Gemini's early chunks none): the output delivered before the cut is
 * billed at least as counted locally.
 */
function partialStreamUsage(usage: BilledUsage, outcome: CallOutcome): BilledUsage {
  if (!outcome.stream || outcome.interruption === undefined) return usage;
  const delivered = outcome.localCompletionTokens();
  return delivered > usage.completionTokens ? { ...usage, completionTokens: delivered } : usage;
}

function describePrice(context: RelayContext): string {
  const { price, call } = context;
  if (price.fixedQuota !== undefined) {
    const count = call.quantities?.imageCount ?? 1;
    return `图片 ${count} 张，尺寸 ${call.quantities?.imageSize ?? '1024x1024'}，分组倍率 ${price.groupRatio.toFixed(2)}`;
  }
  return priceTextsOf(price).description;
}

/** The consume log row of a settled call: the quota is what settlement charged. */
function consumeLogRow(
  context: RelayContext,
  outcome: CallOutcome,
  usage: BilledUsage,
  charged: number,
): NewLog {
  const { caller, price, call } = context;
  let content = describePrice(context);
  if (!outcome.usage) content += '，上游未返回用量，已按本地计数计费';
  if (outcome.interruption) content += `，${outcome.interruption}`;
  if (price.unpriced) content += '，模型未配置价格，按自用模式默认倍率计费';
  const effort = call.body.reasoning_effort;
  const other = formatLogOther({
    price,
    frt: outcome.firstResponseMs,
    cacheTokens: usage.cachedTokens,
    cacheCreationTokens: usage.cacheWriteTokens,
    group: caller.group,
    requestId: context.requestId,
    reservedQuota: context.reservation.amount,
    usageSource: outcome.usage ? 'upstream' : 'local',
    attempts: context.attempts,
    upstreamModelName: outcome.upstreamModel !== call.model ? outcome.upstreamModel : undefined,
    reasoningEffort: typeof effort === 'string' ? effort : undefined,
  });
  return {
    type: LogType.Consume,
    user_id: caller.user.id,
    username: caller.user.username,
    token_id: caller.token?.id ?? 0,
    token_name: caller.token?.name ?? (context.isPlayground ? '操练场' : ''),
    model_name: call.model,
    quota: charged,
    prompt_tokens: usage.promptTokens,
    completion_tokens: usage.completionTokens,
    use_time: Math.max(0, Math.round((performance.now() - context.startedAt) / 1000)),
    is_stream: outcome.stream ? 1 : 0,
    channel_id: outcome.channel.id,
    group: caller.group,
    ip: context.clientIp,
    content,
    other,
  };
}

/**
 * Stages 8–9, after the response is done (never awaited by it): computes the real cost from the
 * upstream usage — or, when the upstream sent none, from the prompt estimate plus the output
 * counted locally — and settles it against the reservation; the consume log row (built from what
 * settlement charged) is kept with the settled ledger row and written in the settlement writer's
 * next batch with the usage counters (on SQLite under load, in the settlement's own commit).
 * Partial-stream policy: a call that delivered anything is billed for what was delivered; a call
 * that delivered nothing is refunded in full.
 */
export function settleUsage(
  context: RelayContext,
  runtime: RelayRuntime,
  options: OptionStore,
  outcome: CallOutcome,
  log: Pick<FastifyBaseLogger, 'error'>,
): Promise<unknown> {
  // Not an async function (its suspended frame per call is what it would cost): the settlement's
  // own promise is handed on, and a fault before it becomes a rejection, as an async one's would.
  try {
    if (!outcome.delivered) return runtime.billing.refund(context.reservation);
    const usage: BilledUsage = outcome.usage
      ? partialStreamUsage(toBilledUsage(outcome.usage), outcome)
      : {
          promptTokens: context.promptEstimate(),
          completionTokens: outcome.localCompletionTokens(),
          cachedTokens: 0,
          cacheWriteTokens: 0,
        };
    const cost = computeQuota(context.price, usage, options.getNumber('QuotaPerUnit'));
    const buildLog = options.getBoolean('LogConsumeEnabled')
      ? (charged: number) => consumeLogRow(context, outcome, usage, charged)
      : undefined;
    return settleAndRecord(
      runtime,
      options,
      log,
      { reservation: context.reservation, cost, channelId: outcome.channel.id, buildLog },
      {
        userId: context.caller.user.id,
        username: context.caller.user.username,
        modelName: context.call.model,
        tokenUsed: usage.promptTokens + usage.completionTokens,
      },
    );
  } catch (error) {
    return Promise.reject(error);
  }
}
