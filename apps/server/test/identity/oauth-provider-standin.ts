import { randomBytes } from 'node:crypto';
import { type SeenRequest, sendJson, startStandin } from './standin-server.ts';

/** An account at the stand-in provider. */
export interface ProviderAccount {
  id: number;
  login: string;
  name?: string;
  email?: string | null;
  /** Linux-DO only. */
  active?: boolean;
  silenced?: boolean;
}

/**
 * A local OAuth2 provider speaking GitHub's wire format (/login/oauth/authorize,
 * /login/oauth/access_token, /user) and Linux-DO Connect's (/oauth2/authorize, /oauth2/token,
 * /api/user). Authorization codes and access tokens are random and single use / per account.
 */
export interface OAuthProviderStandin {
  url: string;
  seen: SeenRequest[];
  /** Visits the authorize endpoint as the account (as a browser would) and returns the code. */
  authorize(flavour: 'github' | 'linuxdo', account: ProviderAccount, state: string): Promise<string>;
  close(): Promise<void>;
}

export async function startOAuthProvider(clients: {
  github: { id: string; secret: string };
  linuxdo: { id: string; secret: string };
}): Promise<OAuthProviderStandin> {
  const codes = new Map<string, { account: ProviderAccount; flavour: 'github' | 'linuxdo' }>();
  const tokens = new Map<string, { account: ProviderAccount; flavour: 'github' | 'linuxdo' }>();
  const accounts = new Map<number, ProviderAccount>();
  const random = () => randomBytes(16).toString('hex');

  const issueToken = (code: string, flavour: 'github' | 'linuxdo') => {
    const grant = codes.get(code);
    codes.delete(code);
    if (!grant || grant.flavour !== flavour) return undefined;
    const token = random();
    tokens.set(token, grant);
    return token;
  };
  const bearer = (request: SeenRequest, flavour: 'github' | 'linuxdo') => {
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '';
    const grant = tokens.get(token);
    return grant?.flavour === flavour ? grant.account : undefined;
  };

  const server = await startStandin((request, response) => {
    if (request.path === '/login/oauth/authorize' || request.path === '/oauth2/authorize') {
      const flavour = request.path === '/oauth2/authorize' ? 'linuxdo' : 'github';
      const account = accounts.get(Number(request.query.get('account')));
      if (request.query.get('client_id') !== clients[flavour].id || !account) {
        return sendJson(response, 400, { error: 'invalid_request' });
      }
      const code = random();
      codes.set(code, { account, flavour });
      const target = new URL(request.query.get('redirect_uri') ?? 'http://console.test/oauth/callback');
      target.searchParams.set('code', code);
      target.searchParams.set('state', request.query.get('state') ?? '');
      response.writeHead(302, { location: target.toString() });
      return response.end();
    }
    if (request.method === 'POST' && request.path === '/login/oauth/access_token') {
      const body = JSON.parse(request.body || '{}') as Record<string, string>;
      if (body.client_id !== clients.github.id || body.client_secret !== clients.github.secret) {
        return sendJson(response, 200, { error: 'incorrect_client_credentials' });
      }
      const token = issueToken(body.code ?? '', 'github');
      // GitHub answers a bad code with HTTP 200 and an error field.
      if (!token) return sendJson(response, 200, { error: 'bad_verification_code' });
      return sendJson(response, 200, { access_token: token, token_type: 'bearer', scope: 'user:email' });
    }
    if (request.method === 'GET' && request.path === '/user') {
      const account = bearer(request, 'github');
      if (!account) return sendJson(response, 401, { message: 'Bad credentials' });
      return sendJson(response, 200, {
        id: account.id,
        login: account.login,
        name: account.name ?? null,
        email: account.email ?? null,
      });
    }
    if (request.method === 'POST' && request.path === '/oauth2/token') {
      const expected = `Basic ${Buffer.from(`${clients.linuxdo.id}:${clients.linuxdo.secret}`).toString('base64')}`;
      if (request.headers.authorization !== expected)
        return sendJson(response, 401, { error: 'invalid_client' });
      const form = new URLSearchParams(request.body);
      const token =
        form.get('grant_type') === 'authorization_code'
          ? issueToken(form.get('code') ?? '', 'linuxdo')
          : undefined;
      if (!token) return sendJson(response, 400, { error: 'invalid_grant' });
      return sendJson(response, 200, { access_token: token, token_type: 'Bearer', expires_in: 3600 });
    }
    if (request.method === 'GET' && request.path === '/api/user') {
      const account = bearer(request, 'linuxdo');
      if (!account) return sendJson(response, 401, { error: 'invalid_token' });
      return sendJson(response, 200, {
        id: account.id,
        username: account.login,
        name: account.name ?? '',
        active: account.active ?? true,
        trust_level: 1,
        silenced: account.silenced ?? false,
      });
    }
    sendJson(response, 404, { error: 'not_found' });
  });

  return {
    url: server.url,
    seen: server.seen,
    close: server.close,
    async authorize(flavour, account, state) {
      accounts.set(account.id, account);
      const path = flavour === 'github' ? '/login/oauth/authorize' : '/oauth2/authorize';
      const query = new URLSearchParams({
        client_id: clients[flavour].id,
        state,
        account: String(account.id),
      });
      const response = await fetch(`${server.url}${path}?${query}`, { redirect: 'manual' });
      if (response.status !== 302) throw new Error(`authorize answered ${response.status}`);
      const location = new URL(response.headers.get('location') ?? '');
      if (location.searchParams.get('state') !== state) throw new Error('state not echoed');
      return location.searchParams.get('code') ?? '';
    },
  };
}
