import type { TelegramAuthData } from '../../../components/telegram-login-button';
import { apiClient } from '../../../lib/api-client';

/** GET /api/verification?email&turnstile — mails a code for binding the address. */
export function sendBindEmailCode(email: string, turnstile: string): Promise<unknown> {
  return apiClient.get('/api/verification', { query: { email, turnstile } });
}

/** GET /api/oauth/email/bind?email&code. */
export function bindEmail(email: string, code: string): Promise<unknown> {
  return apiClient.get('/api/oauth/email/bind', { query: { email, code } });
}

/** GET /api/oauth/wechat/bind?code. */
export function bindWechat(code: string): Promise<unknown> {
  return apiClient.get('/api/oauth/wechat/bind', { query: { code } });
}

/** GET /api/oauth/telegram/bind with the widget's fields. */
export function bindTelegram(data: TelegramAuthData): Promise<unknown> {
  return apiClient.get('/api/oauth/telegram/bind', { query: data });
}
