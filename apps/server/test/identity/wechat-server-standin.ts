import { randomInt } from 'node:crypto';
import { type SeenRequest, sendJson, startStandin } from './standin-server.ts';

/** WeChat login codes live 3 minutes (spec §9). */
export const WECHAT_CODE_TTL_MS = 180_000;

/**
 * A local "WeChat server": the official account answers a user's message with a code, and
 * GET /api/wechat/user?code= (Authorization: the server token) turns the code into the user's
 * WeChat id once.
 */
export interface WeChatServerStandin {
  url: string;
  seen: SeenRequest[];
  /** What the official account would answer the WeChat user `openId`. */
  codeFor(openId: string): string;
  /** Moves a code's expiry into the past. */
  expire(code: string): void;
  close(): Promise<void>;
}

export async function startWeChatServer(token: string): Promise<WeChatServerStandin> {
  const codes = new Map<string, { openId: string; expiresAt: number }>();
  const server = await startStandin((request, response) => {
    if (request.path !== '/api/wechat/user')
      return sendJson(response, 404, { success: false, message: 'not found' });
    if (request.headers.authorization !== token) {
      return sendJson(response, 200, { success: false, message: '无权进行此操作，Token 无效' });
    }
    const code = request.query.get('code') ?? '';
    const entry = codes.get(code);
    codes.delete(code);
    if (!entry || entry.expiresAt < Date.now()) {
      return sendJson(response, 200, { success: false, message: '验证码错误或已过期' });
    }
    sendJson(response, 200, { success: true, message: '', data: entry.openId });
  });
  return {
    url: server.url,
    seen: server.seen,
    close: server.close,
    codeFor(openId) {
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      codes.set(code, { openId, expiresAt: Date.now() + WECHAT_CODE_TTL_MS });
      return code;
    },
    expire(code) {
      const entry = codes.get(code);
      if (entry) entry.expiresAt = Date.now() - 1;
    },
  };
}
