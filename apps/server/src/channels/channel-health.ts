/**
 * Channel health decisions (pure). The side effects — status writes, the routing index, log rows —
 * live in `channel-health-service.ts`; this module only answers "should this channel be disabled
 * (or re-enabled), and why?".
 *
 * A failure is disable-worthy ("a fault") when, with AutomaticDisableChannelEnabled on and the
 * channel's auto_ban = 1, any of these holds (reference §8.2, widened where noted):
 * - HTTP status 401 (invalid key), 402 (payment required) or 403 (forbidden) — the reference only
 *   counted 403 for Gemini; every provider uses 403 for account or region bans;
 * - relay-kit classified the error as a channel fault of the key/account kind:
 *   `channel:invalid_key`, `channel:forbidden`, `channel:quota_exhausted` (not
 *   `channel:model_not_found` or `channel:bad_endpoint`: one missing model or a misconfigured path
 *   must not take the whole channel down, and network failures are never faults);
 * - the upstream error code is `invalid_api_key`, `account_deactivated` or `billing_not_active`, or
 *   its type `insufficient_quota`, `insufficient_user_quota`, `authentication_error`,
 *   `permission_error` or `forbidden` (the reference's lists);
 * - a line of AutomaticDisableKeywords occurs (case-insensitively) in the error message or in the
 *   raw upstream body — the body too, so non-standard error formats are caught (reference #376).
 *
 * How many faults disable a channel (better than the reference's "one strike", §14.9):
 * - on the relay path, {@link DEFAULT_FAILURE_THRESHOLD} faults within
 *   {@link DEFAULT_FAILURE_WINDOW_MS} (3 in 5 minutes), counted by {@link FailureWindow}; a passing
 *   test resets the count;
 * - during an explicit test (single, test-all, or the periodic monitor), one fault disables at
 *   once: the admin asked for a verdict. A test slower than ChannelDisableThreshold seconds
 *   (0 = never) disables too.
 * Only an enabled channel (status 1) is disabled, to status 3 with other_info
 * `{status_reason, status_time}`. A passing test re-enables a status-3 channel when
 * AutomaticEnableChannelEnabled is on; a manually disabled channel (status 2) is never re-enabled.
 */

/** The option values health decisions read. */
export interface HealthSettings {
  /** AutomaticDisableChannelEnabled. */
  autoDisable: boolean;
  /** AutomaticEnableChannelEnabled. */
  autoEnable: boolean;
  /** ChannelDisableThreshold in seconds; 0 (or less) never disables for slowness. */
  disableThresholdSeconds: number;
  /** AutomaticDisableKeywords: non-empty lines, lower-cased. */
  keywords: readonly string[];
}

/** What health decisions need of an upstream failure (an UpstreamError satisfies it). */
export interface HealthFailure {
  /** HTTP status; 0 when no response arrived. */
  status: number;
  /** relay-kit's classification (`channel:invalid_key`, `upstream:timeout`, ...). */
  code: string;
  message: string;
  channelFault: boolean;
  type?: string | undefined;
  upstreamCode?: string | undefined;
  rawBody?: string | undefined;
}

export type HealthDecision =
  | { action: 'disable'; reason: string }
  | { action: 'enable'; reason: string }
  | { action: 'none'; reason: string };

/** Faults needed on the relay path before a channel is disabled. */
export const DEFAULT_FAILURE_THRESHOLD = 3;
/** The window those faults must fall in. */
export const DEFAULT_FAILURE_WINDOW_MS = 5 * 60_000;

/** Statuses that always blame the channel's key or account. */
export const FAULT_STATUSES: ReadonlySet<number> = new Set([401, 402, 403]);
/** relay-kit codes that disable (key, account and billing problems). */
export const FAULT_CODES: ReadonlySet<string> = new Set([
  'channel:invalid_key',
  'channel:forbidden',
  'channel:quota_exhausted',
]);
const FAULT_UPSTREAM_CODES: ReadonlySet<string> = new Set([
  'invalid_api_key',
  'account_deactivated',
  'billing_not_active',
]);
const FAULT_UPSTREAM_TYPES: ReadonlySet<string> = new Set([
  'insufficient_quota',
  'insufficient_user_quota',
  'authentication_error',
  'permission_error',
  'forbidden',
]);

/** Reads the settings from anything shaped like the option store. */
export function readHealthSettings(options: {
  get(key: string): string;
  getBoolean(key: string): boolean;
  getNumber(key: string): number;
}): HealthSettings {
  return {
    autoDisable: options.getBoolean('AutomaticDisableChannelEnabled'),
    autoEnable: options.getBoolean('AutomaticEnableChannelEnabled'),
    disableThresholdSeconds: options.getNumber('ChannelDisableThreshold'),
    keywords: parseDisableKeywords(options.get('AutomaticDisableKeywords')),
  };
}

/** AutomaticDisableKeywords text → trimmed, lower-cased, non-empty lines. */
export function parseDisableKeywords(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.trim().toLowerCase())
    .filter((line) => line !== '');
}

/** Why a failure is the channel's fault, or undefined when it is not. */
export function faultReason(failure: HealthFailure, keywords: readonly string[]): string | undefined {
  const detail = failure.status > 0 ? `status code ${failure.status}: ${failure.message}` : failure.message;
  if (FAULT_STATUSES.has(failure.status)) return detail;
  if (failure.channelFault && FAULT_CODES.has(failure.code)) return detail;
  const upstreamCode = failure.upstreamCode?.toLowerCase();
  if (upstreamCode !== undefined && FAULT_UPSTREAM_CODES.has(upstreamCode)) return detail;
  const type = failure.type?.toLowerCase();
  if (type !== undefined && FAULT_UPSTREAM_TYPES.has(type)) return detail;
  if (keywords.length > 0) {
    const haystack = `${failure.message}\n${failure.rawBody ?? ''}`.toLowerCase();
    const keyword = keywords.find((line) => haystack.includes(line));
    if (keyword !== undefined) return `${detail}（命中自动禁用关键词 "${keyword}"）`;
  }
  return undefined;
}

/** Whether one upstream failure is a disable-worthy fault of this channel. */
export function judgeFailure(
  settings: HealthSettings,
  autoBan: boolean,
  failure: HealthFailure,
): HealthDecision {
  if (!settings.autoDisable) return { action: 'none', reason: 'automatic disabling is off' };
  if (!autoBan) return { action: 'none', reason: 'the channel does not allow automatic disabling' };
  const reason = faultReason(failure, settings.keywords);
  if (reason === undefined) return { action: 'none', reason: 'not a channel fault' };
  return { action: 'disable', reason };
}

/** Formats seconds as the reference does (`%.2fs`). */
const seconds = (value: number) => `${value.toFixed(2)}s`;

/** The message of a test slower than the threshold, or undefined. */
export function slownessReason(settings: HealthSettings, responseMs: number): string | undefined {
  const threshold = settings.disableThresholdSeconds;
  if (!(threshold > 0) || responseMs <= threshold * 1000) return undefined;
  return `响应时间 ${seconds(responseMs / 1000)} 超过阈值 ${seconds(threshold)}`;
}

/** The result of one explicit channel test, as health decisions see it. */
export interface TestOutcome {
  /** The upstream failure; undefined when the call succeeded. */
  failure?: HealthFailure | undefined;
  /** A failure of the gateway itself (unsupported type, bad test model): never the channel's fault. */
  localError?: string | undefined;
  responseMs: number;
}

/**
 * What to do with a channel after an explicit test: disable an enabled channel on one fault or on
 * slowness; re-enable an automatically disabled one after a clean pass; otherwise nothing.
 */
export function judgeTestOutcome(
  settings: HealthSettings,
  channel: { status: number; autoBan: boolean },
  outcome: TestOutcome,
): HealthDecision {
  const slow = slownessReason(settings, outcome.responseMs);
  const fault = outcome.failure ? faultReason(outcome.failure, settings.keywords) : undefined;
  const passed = !outcome.failure && outcome.localError === undefined && slow === undefined;
  if (channel.status === 1) {
    const reason = fault ?? slow;
    if (reason === undefined) return { action: 'none', reason: 'healthy or not the channel’s fault' };
    if (!settings.autoDisable) return { action: 'none', reason: 'automatic disabling is off' };
    if (!channel.autoBan) return { action: 'none', reason: 'the channel does not allow automatic disabling' };
    return { action: 'disable', reason };
  }
  if (channel.status === 3 && passed) {
    if (!settings.autoEnable) return { action: 'none', reason: 'automatic enabling is off' };
    return { action: 'enable', reason: '测试通过，自动启用' };
  }
  return { action: 'none', reason: channel.status === 2 ? 'manually disabled' : 'no change' };
}

/**
 * Counts faults per channel inside a sliding window. `record` returns how many faults the channel
 * has within the window, this one included; `reset` forgets a channel (after a passing test or a
 * disable). Time is passed in, so it is deterministic in tests.
 */
export class FailureWindow {
  private readonly faults = new Map<number, number[]>();

  constructor(
    readonly threshold = DEFAULT_FAILURE_THRESHOLD,
    readonly windowMs = DEFAULT_FAILURE_WINDOW_MS,
  ) {}

  record(channelId: number, now: number): number {
    const since = now - this.windowMs;
    const times = (this.faults.get(channelId) ?? []).filter((time) => time > since);
    times.push(now);
    // Only the last `threshold` times matter; keep the list bounded.
    if (times.length > this.threshold) times.splice(0, times.length - this.threshold);
    this.faults.set(channelId, times);
    return times.length;
  }

  /** True when `record` reached the threshold. */
  reached(count: number): boolean {
    return count >= this.threshold;
  }

  reset(channelId: number): void {
    this.faults.delete(channelId);
  }

  /** Channels with faults on record (for tests and diagnostics). */
  get size(): number {
    return this.faults.size;
  }
}
