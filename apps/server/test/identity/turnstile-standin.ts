import { randomBytes } from 'node:crypto';
import { type SeenRequest, sendJson, startStandin } from './standin-server.ts';

/**
 * A local Turnstile siteverify endpoint (POST form secret, response, remoteip), answering like
 * Cloudflare: {success, "error-codes"}. Tokens are single use.
 */
export interface TurnstileStandin {
  verifyUrl: string;
  seen: SeenRequest[];
  /** A token the widget would hand a human visitor. */
  passToken(): string;
  close(): Promise<void>;
}

export async function startTurnstile(secret: string): Promise<TurnstileStandin> {
  const tokens = new Set<string>();
  const server = await startStandin((request, response) => {
    if (request.method !== 'POST' || request.path !== '/turnstile/v0/siteverify') {
      return sendJson(response, 404, { success: false, 'error-codes': ['not-found'] });
    }
    const form = new URLSearchParams(request.body);
    if (form.get('secret') !== secret) {
      return sendJson(response, 200, { success: false, 'error-codes': ['invalid-input-secret'] });
    }
    const token = form.get('response') ?? '';
    if (!tokens.delete(token)) {
      return sendJson(response, 200, { success: false, 'error-codes': ['invalid-input-response'] });
    }
    sendJson(response, 200, { success: true, 'error-codes': [], hostname: 'console.test' });
  });
  return {
    verifyUrl: `${server.url}/turnstile/v0/siteverify`,
    seen: server.seen,
    close: server.close,
    passToken() {
      const token = randomBytes(24).toString('base64url');
      tokens.add(token);
      return token;
    },
  };
}
