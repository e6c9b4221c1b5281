import { randomBytes } from 'node:crypto';
import {
  formatQuota,
  REDEMPTION_CREATE_MAX_COUNT,
  REDEMPTION_KEY_LENGTH,
  REDEMPTION_NAME_MAX_LENGTH,
  REDEMPTION_QUOTA_MAX,
} from '@switchyard/shared';
import { invalidRequest } from '../../errors/gateway-error.ts';
import type { OptionStore } from '../../options/option-store.ts';

const NAME_LENGTH_MESSAGE = `兑换码名称长度必须在1-${REDEMPTION_NAME_MAX_LENGTH}之间`;

/** A fresh code: 32 lowercase hexadecimal characters (128 random bits from the CSPRNG). */
export const generateRedemptionKey = (): string => randomBytes(REDEMPTION_KEY_LENGTH / 2).toString('hex');

/** Checks a quota: a positive integer up to REDEMPTION_QUOTA_MAX. */
export function checkRedemptionQuota(quota: number): number {
  if (!Number.isInteger(quota) || quota <= 0) throw invalidRequest('兑换码额度必须是正整数');
  if (quota > REDEMPTION_QUOTA_MAX) throw invalidRequest('兑换码额度过大');
  return quota;
}

/** Checks a name: 1..20 characters after trimming (characters, not bytes, so CJK names fit). */
export function checkRedemptionName(name: string | undefined): string {
  const value = (name ?? '').trim();
  const length = [...value].length;
  if (length === 0 || length > REDEMPTION_NAME_MAX_LENGTH) throw invalidRequest(NAME_LENGTH_MESSAGE);
  return value;
}

/**
 * The name of a new code: the given one, or when empty the quota as the console formats it
 * (`$0.20` with currency display, the raw number otherwise).
 */
export function nameForNewCode(name: string | undefined, quota: number, options: OptionStore): string {
  if ((name ?? '').trim() !== '') return checkRedemptionName(name);
  return formatQuota(
    quota,
    options.getBoolean('DisplayInCurrencyEnabled'),
    options.getNumber('QuotaPerUnit'),
  );
}

/** Checks a batch size: an integer from 1 to 100. */
export function checkRedemptionCount(count: number): number {
  if (!Number.isInteger(count) || count <= 0) throw invalidRequest('兑换码个数必须大于0');
  if (count > REDEMPTION_CREATE_MAX_COUNT) {
    throw invalidRequest(`一次兑换码批量生成的个数不能大于 ${REDEMPTION_CREATE_MAX_COUNT}`);
  }
  return count;
}

/**
 * A key as typed by a user, made comparable with stored keys: trimmed, and lowercased when it
 * has the shape of a generated code. Null when it cannot be a stored key at all.
 */
export function normalizeRedemptionKey(raw: string): string | null {
  const key = raw.trim();
  if (key === '' || key.length > 64) return null;
  return /^[0-9a-f]{32}$/i.test(key) ? key.toLowerCase() : key;
}
