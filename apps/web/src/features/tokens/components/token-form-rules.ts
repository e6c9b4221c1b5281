import { type TokenCreateBody, TokenStatus, type TokenView } from '@switchyard/shared';
import dayjs from 'dayjs';

/** Spec §9: a new token has quota 500000, never expires and is created once. */
export const NEW_TOKEN_QUOTA = 500_000;
/** Quota presets (raw units) and their dollar labels. */
export const QUOTA_PRESETS = [
  { quota: 500_000, label: '1$' },
  { quota: 5_000_000, label: '10$' },
  { quota: 25_000_000, label: '50$' },
  { quota: 50_000_000, label: '100$' },
  { quota: 250_000_000, label: '500$' },
  { quota: 500_000_000, label: '1000$' },
] as const;
/** Creation count presets. */
export const COUNT_PRESETS = [10, 20, 30, 100] as const;
export const EXPIRY_FORMAT = 'YYYY-MM-DD HH:mm:ss';
export type ExpiryQuick = 'never' | 'hour' | 'day' | 'month';

/** The editor's values. `expiry` is text: `-1` or `yyyy-MM-dd HH:mm:ss`. */
export interface TokenFormValues {
  name: string;
  expiry: string;
  remain_quota: number | null;
  unlimited_quota: boolean;
  count: number | null;
  allow_ips: string;
  model_limits_enabled: boolean;
  model_limits: string[];
  /** Undefined (not '') when empty, so the select shows its placeholder: the user's group. */
  group: string | undefined;
}

export const newTokenValues = (): TokenFormValues => ({
  name: '',
  expiry: '-1',
  remain_quota: NEW_TOKEN_QUOTA,
  unlimited_quota: false,
  count: 1,
  allow_ips: '',
  model_limits_enabled: false,
  model_limits: [],
  group: undefined,
});

/** Unix seconds → editor text (`-1` for never). */
export function formatExpiry(seconds: number): string {
  return seconds === -1 ? '-1' : dayjs.unix(seconds).format(EXPIRY_FORMAT);
}

/** Editor text → Unix seconds, -1 for never, or null when it is not `-1` nor a valid date-time. */
export function parseExpiry(text: string): number | null {
  const value = text.trim();
  if (value === '-1') return -1;
  const match = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const date = new Date(year, month - 1, day, hour, minute, second);
  const same =
    date.getFullYear() === year &&
    date.getMonth() === month - 1 &&
    date.getDate() === day &&
    date.getHours() === hour &&
    date.getMinutes() === minute &&
    date.getSeconds() === second;
  return same ? Math.floor(date.getTime() / 1000) : null;
}

/** The expiry text a quick button sets (never, now + 1 hour, + 1 day, + 1 month). */
export function quickExpiry(kind: ExpiryQuick, now: Date = new Date()): string {
  if (kind === 'never') return '-1';
  const amount = { hour: [1, 'hour'], day: [1, 'day'], month: [1, 'month'] } as const;
  const [count, unit] = amount[kind];
  return dayjs(now).add(count, unit).format(EXPIRY_FORMAT);
}

export const tokenToFormValues = (token: TokenView): TokenFormValues => ({
  name: token.name,
  expiry: formatExpiry(token.expired_time),
  remain_quota: token.remain_quota,
  unlimited_quota: token.unlimited_quota,
  count: 1,
  allow_ips: token.allow_ips ?? '',
  model_limits_enabled: token.model_limits_enabled,
  model_limits: token.model_limits
    ? token.model_limits
        .split(',')
        .map((model) => model.trim())
        .filter(Boolean)
    : [],
  group: token.group ? token.group : undefined,
});

/** Why the editor refuses to submit: a message key of the tokens namespace. */
export type TokenFormError = 'nameRequired' | 'expiryInvalid' | 'countInvalid' | 'quotaNegative';

/** Checks the editor values and builds the request body (create also sends `count`). */
export function buildTokenBody(
  values: TokenFormValues,
  creating: boolean,
): { body: TokenCreateBody } | { error: TokenFormError } {
  const name = values.name.trim();
  if (creating && name === '') return { error: 'nameRequired' };
  const expired_time = parseExpiry(values.expiry);
  if (expired_time === null) return { error: 'expiryInvalid' };
  const quota = Number(values.remain_quota ?? 0);
  if (!Number.isInteger(quota) || quota < 0) return { error: 'quotaNegative' };
  const count = Number(values.count ?? 0);
  if (creating && (!Number.isInteger(count) || count < 1)) return { error: 'countInvalid' };
  const body: TokenCreateBody = {
    ...(name !== '' ? { name } : {}),
    expired_time,
    remain_quota: quota,
    unlimited_quota: values.unlimited_quota,
    model_limits_enabled: values.model_limits_enabled,
    model_limits: values.model_limits_enabled ? values.model_limits.join(',') : '',
    allow_ips: values.allow_ips
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean)
      .join('\n'),
    group: values.group ?? '',
    ...(creating ? { count } : {}),
  };
  return { body };
}

/**
 * The enable/disable action of a row. Users toggle between 1 and 2 only; an expired or exhausted
 * token (status 3 or 4, or a disabled one whose time or quota ran out) cannot be enabled until
 * its expiry or quota is changed.
 */
export function tokenToggleState(
  token: Pick<TokenView, 'status' | 'expired_time' | 'remain_quota' | 'unlimited_quota'>,
  nowSeconds = Math.floor(Date.now() / 1000),
): { action: 'enable' | 'disable'; blocked: 'expired' | 'exhausted' | null } {
  if (token.status === TokenStatus.Enabled) return { action: 'disable', blocked: null };
  const expired =
    token.status === TokenStatus.Expired || (token.expired_time !== -1 && token.expired_time <= nowSeconds);
  if (expired) return { action: 'enable', blocked: 'expired' };
  const exhausted =
    token.status === TokenStatus.Exhausted || (!token.unlimited_quota && token.remain_quota <= 0);
  if (exhausted) return { action: 'enable', blocked: 'exhausted' };
  return { action: 'enable', blocked: null };
}
