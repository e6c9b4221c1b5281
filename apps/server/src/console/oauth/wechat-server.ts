import { invalidRequest } from '../../errors/gateway-error.ts';
import type { OptionStore } from '../../options/option-store.ts';

const TIMEOUT_MS = 5_000;

/**
 * Asks the WeChat server (WeChatServerAddress, authenticated with WeChatServerToken) which WeChat
 * account the code belongs to: GET {address}/api/wechat/user?code= → {success, message, data: id}.
 */
export async function weChatIdOfCode(options: OptionStore, code: string): Promise<string> {
  if (code.trim() === '') throw invalidRequest('无效的参数');
  const address = options.get('WeChatServerAddress').replace(/\/+$/, '');
  let body: { success?: unknown; message?: unknown; data?: unknown };
  try {
    const response = await fetch(`${address}/api/wechat/user?code=${encodeURIComponent(code.trim())}`, {
      headers: { authorization: options.get('WeChatServerToken'), accept: 'application/json' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    body = (await response.json()) as typeof body;
  } catch {
    throw invalidRequest('无法连接至微信服务器，请稍后重试！');
  }
  if (body === null || typeof body !== 'object') throw invalidRequest('微信服务器返回值非法，请稍后重试！');
  if (body.success !== true) {
    const message =
      typeof body.message === 'string' && body.message !== '' ? body.message : '验证码错误或已过期';
    throw invalidRequest(message.slice(0, 200));
  }
  if (typeof body.data !== 'string' || body.data === '' || body.data.length > 255) {
    throw invalidRequest('验证码错误或已过期');
  }
  return body.data;
}
