import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkTelegramAuth, TELEGRAM_EXPIRED, TELEGRAM_FORGED } from './telegram-auth.ts';

const botToken = '123456:test-bot-token';
const now = 1_760_000_000;

/** Signs fields the way Telegram's widget does (written from Telegram's documentation). */
function signed(fields: Record<string, string>, token = botToken): Record<string, string> {
  const lines = Object.keys(fields)
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
  const secret = createHash('sha256').update(token).digest();
  return { ...fields, hash: createHmac('sha256', secret).update(lines).digest('hex') };
}

const base = { id: '987654321', first_name: 'Ada', username: 'ada', auth_date: String(now - 60) };

describe('Telegram login widget check', () => {
  it('accepts correctly signed, recent data and returns the Telegram id', () => {
    expect(checkTelegramAuth(signed(base), botToken, now)).toEqual({ ok: true, id: '987654321' });
    expect(checkTelegramAuth(signed({ ...base, photo_url: 'https://t.me/i/a.jpg' }), botToken, now).ok).toBe(
      true,
    );
  });

  it('refuses a changed field, another bot token, a missing or malformed hash', () => {
    const data = signed(base);
    expect(checkTelegramAuth({ ...data, id: '1' }, botToken, now)).toEqual({
      ok: false,
      message: TELEGRAM_FORGED,
    });
    expect(checkTelegramAuth({ ...data, extra: 'x' }, botToken, now).ok).toBe(false);
    expect(checkTelegramAuth(signed(base, '999:other'), botToken, now)).toEqual({
      ok: false,
      message: TELEGRAM_FORGED,
    });
    expect(checkTelegramAuth(base, botToken, now).ok).toBe(false);
    expect(checkTelegramAuth({ ...data, hash: 'zz' }, botToken, now).ok).toBe(false);
    expect(checkTelegramAuth(data, '', now).ok).toBe(false);
    expect(checkTelegramAuth({ ...data, id: ['1', '2'] }, botToken, now).ok).toBe(false);
  });

  it('refuses data older than a day or from the future', () => {
    const old = signed({ ...base, auth_date: String(now - 86_401) });
    expect(checkTelegramAuth(old, botToken, now)).toEqual({ ok: false, message: TELEGRAM_EXPIRED });
    const future = signed({ ...base, auth_date: String(now + 3600) });
    expect(checkTelegramAuth(future, botToken, now)).toEqual({ ok: false, message: TELEGRAM_EXPIRED });
    expect(checkTelegramAuth(signed({ ...base, auth_date: 'soon' }), botToken, now).ok).toBe(false);
  });
});
