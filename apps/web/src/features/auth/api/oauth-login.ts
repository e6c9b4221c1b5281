import type { TelegramAuthData } from '../../../components/telegram-login-button';
import { apiClient, requestEnvelope } from '../../../lib/api-client';
import type { LoginUser } from './auth-types';

export type OAuthProvider = 'github' | 'linuxdo';

/**
 * GET /api/oauth/{provider}?code&state. A reply message of "bind" means the provider account was
 * linked to the signed-in user; otherwise `data` is the logged-in user.
 */
export async function completeOAuth(
  provider: OAuthProvider,
  code: string,
  state: string,
): Promise<{ bound: true } | { bound: false; user: LoginUser }> {
  const envelope = await requestEnvelope<LoginUser>('GET', `/api/oauth/${provider}`, {
    query: { code, state },
  });
  return envelope.message === 'bind' ? { bound: true } : { bound: false, user: envelope.data };
}

/** GET /api/oauth/wechat?code — login with the code the WeChat official account sends. */
export function wechatLogin(code: string): Promise<LoginUser> {
  return apiClient.get<LoginUser>('/api/oauth/wechat', { query: { code } });
}

/** GET /api/oauth/telegram/login with the widget's fields. */
export function telegramLogin(data: TelegramAuthData): Promise<LoginUser> {
  return apiClient.get<LoginUser>('/api/oauth/telegram/login', { query: data });
}
