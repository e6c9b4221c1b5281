import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** How long a Telegram login widget answer stays acceptable, seconds. */
export const TELEGRAM_AUTH_MAX_AGE_SECONDS = 86_400;
/** Allowed clock difference for an auth_date slightly in the future, seconds. */
const CLOCK_SKEW_SECONDS = 300;

export type TelegramCheck = { ok: true; id: string } | { ok: false; message: string };

export const TELEGRAM_FORGED = '无效的请求：Telegram 登录数据签名校验失败';
export const TELEGRAM_EXPIRED = '无效的请求：Telegram 登录数据已过期，请重新授权';

/**
 * Verifies the fields of Telegram's login widget: `hash` must be the hex HMAC-SHA256, keyed with
 * SHA-256(bot token), of every other field as sorted `key=value` lines; `auth_date` must be recent.
 */
export function checkTelegramAuth(
  fields: Record<string, unknown>,
  botToken: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): TelegramCheck {
  const entries = Object.entries(fields);
  if (botToken === '' || entries.some(([, value]) => typeof value !== 'string')) {
    return { ok: false, message: TELEGRAM_FORGED };
  }
  const values = fields as Record<string, string>;
  const hash = values.hash ?? '';
  if (!/^[0-9a-f]{64}$/i.test(hash)) return { ok: false, message: TELEGRAM_FORGED };
  const dataCheckString = entries
    .filter(([key]) => key !== 'hash')
    .map(([key, value]) => `${key}=${value as string}`)
    .sort()
    .join('\n');
  const key = createHash('sha256').update(botToken).digest();
  const expected = createHmac('sha256', key).update(dataCheckString).digest();
  if (!timingSafeEqual(expected, Buffer.from(hash, 'hex'))) return { ok: false, message: TELEGRAM_FORGED };
  const id = values.id ?? '';
  const authDate = Number(values.auth_date);
  if (!/^\d{1,20}$/.test(id) || !Number.isSafeInteger(authDate))
    return { ok: false, message: TELEGRAM_FORGED };
  if (authDate > nowSeconds + CLOCK_SKEW_SECONDS || nowSeconds - authDate > TELEGRAM_AUTH_MAX_AGE_SECONDS) {
    return { ok: false, message: TELEGRAM_EXPIRED };
  }
  return { ok: true, id };
}
