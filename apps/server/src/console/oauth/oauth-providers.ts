import type { AppServices } from '../../app-services.ts';
import type { IdentityColumn } from '../../db/repositories/user-repository.ts';
import { invalidRequest } from '../../errors/gateway-error.ts';

/** What the server keeps of a provider account. */
export interface ProviderProfile {
  /** Stable account id, stored in the user's identity column. */
  id: string;
  /** An older id form to recognise accounts bound before (GitHub: the login name). */
  legacyId?: string;
  displayName: string;
  email: string;
}

/** A code-exchange OAuth2 provider (GitHub, Linux-DO). */
export interface OAuthProvider {
  type: 'github' | 'linuxdo';
  /** Product name in messages. */
  name: string;
  column: IdentityColumn;
  enabledOption: string;
  usernamePrefix: string;
  defaultDisplayName: string;
  fetchProfile(services: AppServices, code: string): Promise<ProviderProfile>;
}

const TIMEOUT_MS = 10_000;
const EMPTY_PROFILE = '返回值非法，用户字段为空，请稍后重试！';

/** fetch + JSON with a timeout; any network or parse failure becomes a clear refusal. */
async function fetchJson(
  name: string,
  url: string,
  init: RequestInit,
): Promise<{ status: number; body: unknown }> {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
    return { status: response.status, body };
  } catch {
    throw invalidRequest(`无法连接至 ${name} 服务器，请稍后重试！`);
  }
}

function field(body: unknown, key: string): unknown {
  return typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[key] : undefined;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

function accessTokenOf(name: string, result: { status: number; body: unknown }): string {
  const token = field(result.body, 'access_token');
  if (result.status >= 400 || typeof token !== 'string' || token === '') {
    throw invalidRequest(`${name} 授权码无效或已过期，请重新登录`);
  }
  return token;
}

function idOf(value: unknown): string {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value === 'string' && /^\d{1,20}$/.test(value)) return value;
  return '';
}

export const githubProvider: OAuthProvider = {
  type: 'github',
  name: 'GitHub',
  column: 'github_id',
  enabledOption: 'GitHubOAuthEnabled',
  usernamePrefix: 'github_',
  defaultDisplayName: 'GitHub User',
  async fetchProfile({ options, config }, code) {
    const { githubOAuth, githubApi } = config.identityEndpoints;
    const token = accessTokenOf(
      'GitHub',
      await fetchJson('GitHub', `${githubOAuth}/login/oauth/access_token`, {
        method: 'POST',
        headers: { accept: 'application/json', 'content-type': 'application/json' },
        body: JSON.stringify({
          client_id: options.get('GitHubClientId'),
          client_secret: options.get('GitHubClientSecret'),
          code,
        }),
      }),
    );
    const user = await fetchJson('GitHub', `${githubApi}/user`, {
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${token}`,
        'user-agent': 'Switchyard',
      },
    });
    const id = idOf(field(user.body, 'id'));
    const login = text(field(user.body, 'login'));
    if (user.status >= 400 || id === '' || login === '') throw invalidRequest(EMPTY_PROFILE);
    return {
      id,
      legacyId: login,
      displayName: text(field(user.body, 'name')) || login,
      email: text(field(user.body, 'email')),
    };
  },
};

export const linuxDoProvider: OAuthProvider = {
  type: 'linuxdo',
  name: 'Linux DO',
  column: 'linux_do_id',
  enabledOption: 'LinuxDOOAuthEnabled',
  usernamePrefix: 'linuxdo_',
  defaultDisplayName: 'LinuxDO User',
  async fetchProfile({ options, config }, code) {
    const base = config.identityEndpoints.linuxDo;
    const credentials = `${options.get('LinuxDOClientId')}:${options.get('LinuxDOClientSecret')}`;
    const address = options.get('ServerAddress') || `http://localhost:${config.port}`;
    const token = accessTokenOf(
      'Linux DO',
      await fetchJson('Linux DO', `${base}/oauth2/token`, {
        method: 'POST',
        headers: {
          accept: 'application/json',
          authorization: `Basic ${Buffer.from(credentials).toString('base64')}`,
        },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          redirect_uri: `${address}/oauth/linuxdo`,
        }),
      }),
    );
    const user = await fetchJson('Linux DO', `${base}/api/user`, {
      headers: { accept: 'application/json', authorization: `Bearer ${token}` },
    });
    const id = idOf(field(user.body, 'id'));
    const username = text(field(user.body, 'username'));
    if (user.status >= 400 || id === '') throw invalidRequest(EMPTY_PROFILE);
    if (field(user.body, 'active') === false || field(user.body, 'silenced') === true) {
      throw invalidRequest('该 Linux DO 账户未激活或已被禁言，无法登录');
    }
    return { id, displayName: text(field(user.body, 'name')) || username, email: '' };
  },
};
