import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUser,
  expectOk,
  expectRefused,
  ROOT_PASSWORD,
  setOption,
  uniqueName,
} from '../console/console-support.ts';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';
import { beginOAuth, cookiesOf, signedIn } from './identity-support.ts';
import {
  type OAuthProviderStandin,
  type ProviderAccount,
  startOAuthProvider,
} from './oauth-provider-standin.ts';

/** GitHub and Linux-DO sign-in and binding against a local OAuth2 provider. */

const clients = {
  github: { id: 'gh-client-id', secret: 'gh-client-secret-value' },
  linuxdo: { id: 'ld-client-id', secret: 'ld-client-secret-value' },
};
const MISMATCH = 'state is empty or not same';

let t: TestApp;
let root: ConsoleClient;
let provider: OAuthProviderStandin;
let nextAccountId = 1000;
const account = (extra: Partial<ProviderAccount> = {}): ProviderAccount => ({
  id: ++nextAccountId,
  login: uniqueName('gh'),
  ...extra,
});

beforeAll(async () => {
  provider = await startOAuthProvider(clients);
  t = await buildTestApp({
    GITHUB_OAUTH_BASE_URL: provider.url,
    GITHUB_API_BASE_URL: provider.url,
    LINUX_DO_OAUTH_BASE_URL: `${provider.url}/`,
  });
  root = await t.login('root', ROOT_PASSWORD);
  await setOption(root, 'GitHubClientId', clients.github.id);
  await setOption(root, 'GitHubClientSecret', clients.github.secret);
  await setOption(root, 'GitHubOAuthEnabled', 'true');
  await setOption(root, 'LinuxDOClientId', clients.linuxdo.id);
  await setOption(root, 'LinuxDOClientSecret', clients.linuxdo.secret);
  await setOption(root, 'LinuxDOOAuthEnabled', 'true');
  await setOption(root, 'ServerAddress', 'https://gw.example.com');
});
afterAll(async () => {
  await t?.close();
  await provider?.close();
});

/** Runs a whole GitHub/Linux-DO round as `client` (anonymous unless given). */
async function oauthRound(
  flavour: 'github' | 'linuxdo',
  who: ProviderAccount,
  client: ConsoleClient = t.anonymous(),
  aff?: string,
) {
  const { state, browser } = await beginOAuth(t, client, aff);
  const code = await provider.authorize(flavour, who, state);
  return browser.get(`/api/oauth/${flavour}?code=${code}&state=${state}`);
}

describe('OAuth state', () => {
  it('is random, single use, bound to the browser that asked for it, and expires', async () => {
    const first = await beginOAuth(t, t.anonymous());
    const second = await beginOAuth(t, t.anonymous());
    expect(first.state).not.toBe(second.state);
    expect(first.state.length).toBeGreaterThanOrEqual(16);
    const who = account();
    const code = await provider.authorize('github', who, first.state);
    // No cookie, a wrong state, or another browser's cookie: refused before the code is spent.
    expectRefused(await t.anonymous().get(`/api/oauth/github?code=${code}&state=${first.state}`), MISMATCH);
    expectRefused(await first.browser.get(`/api/oauth/github?code=${code}`), MISMATCH);
    expectRefused(await second.browser.get(`/api/oauth/github?code=${code}&state=${first.state}`), MISMATCH);
    const done = await first.browser.get(`/api/oauth/github?code=${code}&state=${first.state}`);
    expect(expectOk(done).username).toMatch(/^github_\d+$/);
    expect(cookiesOf(done).oauth_state).toBe('');
    // Reused state (even with its cookie and a fresh code) is refused.
    const again = await provider.authorize('github', who, first.state);
    expectRefused(await first.browser.get(`/api/oauth/github?code=${again}&state=${first.state}`), MISMATCH);

    const late = await beginOAuth(t, t.anonymous());
    await t.app.services.database.db
      .updateTable('verifications')
      .set({ expires_at: Math.floor(Date.now() / 1000) - 1 })
      .where('purpose', '=', 'oauth_state')
      .execute();
    const lateCode = await provider.authorize('github', account(), late.state);
    expectRefused(await late.browser.get(`/api/oauth/github?code=${lateCode}&state=${late.state}`), MISMATCH);
  });

  it('refuses a malformed invite code', async () => {
    expectRefused(await t.anonymous().get('/api/oauth/state?aff=bad%20code'), /无效的参数/);
  });
});

describe('GitHub', () => {
  it('creates a user on first sign-in (rewarding the inviter), then signs the same user in', async () => {
    await setOption(root, 'QuotaForNewUser', 100);
    await setOption(root, 'QuotaForInvitee', 500);
    await setOption(root, 'QuotaForInviter', 1000);
    const inviterName = uniqueName('inv');
    await createUser(root, inviterName);
    const inviter = await t.login(inviterName, 'password123');
    const aff = expectOk(await inviter.get('/api/user/aff')) as string;

    const who = account({ name: 'Octo Cat', email: `${uniqueName('oc')}@example.com` });
    const response = await oauthRound('github', who, t.anonymous(), aff);
    const body = response.json();
    expect(body.message).toBe('');
    expect(Object.keys(body.data).sort()).toEqual([
      'display_name',
      'group',
      'id',
      'role',
      'status',
      'username',
    ]);
    const user = signedIn(t, response);
    const self = expectOk(await user.get('/api/user/self'));
    expect(self).toMatchObject({ github_id: String(who.id), display_name: 'Octo Cat', email: who.email });
    expect(self.quota).toBe(600);
    expect(self.inviter_id).toBe(expectOk(await inviter.get('/api/user/self')).id);
    expect(expectOk(await inviter.get('/api/user/self'))).toMatchObject({ aff_count: 1, aff_quota: 1000 });
    // The code went to the token endpoint with the client secret, which no answer ever contains.
    const exchange = provider.seen.filter((seen) => seen.path === '/login/oauth/access_token').at(-1)!;
    expect(JSON.parse(exchange.body)).toMatchObject({
      client_id: clients.github.id,
      client_secret: clients.github.secret,
    });
    expect(response.body).not.toContain(clients.github.secret);

    const second = await oauthRound('github', who);
    expect(expectOk(second).id).toBe(self.id);
    await setOption(root, 'QuotaForNewUser', 0);
    await setOption(root, 'QuotaForInvitee', 0);
    await setOption(root, 'QuotaForInviter', 0);
  });

  it('binds the account to the signed-in user (message "bind") and refuses an account bound elsewhere', async () => {
    const name = uniqueName('gb');
    await createUser(root, name);
    const user = await t.login(name, 'password123');
    const who = account();
    const bound = await oauthRound('github', who, user);
    expect(bound.json()).toMatchObject({ success: true, message: 'bind' });
    expect(expectOk(await user.get('/api/user/self')).github_id).toBe(String(who.id));

    const otherName = uniqueName('gb');
    await createUser(root, otherName);
    const other = await t.login(otherName, 'password123');
    expectRefused(await oauthRound('github', who, other), '该 GitHub 账户已被绑定');
    expect(expectOk(await other.get('/api/user/self')).github_id).toBe('');
    // Signing in with the bound account now reaches the binding user.
    expect(expectOk(await oauthRound('github', who)).id).toBe(user.userId);
  });

  it('recognises an account bound by its login name and moves it to the numeric id', async () => {
    const name = uniqueName('lg');
    const id = await createUser(root, name);
    const who = account();
    await t.app.services.users.update(id, { github_id: who.login });
    expect(expectOk(await oauthRound('github', who)).id).toBe(id);
    expect((await t.app.services.users.findById(id))?.github_id).toBe(String(who.id));
  });

  it('refuses when disabled, when registration is closed, for banned or deactivated users and bad codes', async () => {
    const who = account();
    const userId = expectOk(await oauthRound('github', who)).id as number;

    await setOption(root, 'GitHubOAuthEnabled', 'false');
    expectRefused(await oauthRound('github', who), '管理员未开启通过 GitHub 登录以及注册');
    await setOption(root, 'GitHubOAuthEnabled', 'true');

    await setOption(root, 'RegisterEnabled', 'false');
    try {
      expectRefused(await oauthRound('github', account()), '管理员关闭了新用户注册');
      expect(expectOk(await oauthRound('github', who)).id).toBe(userId);
    } finally {
      await setOption(root, 'RegisterEnabled', 'true');
    }

    expectOk(await root.post('/api/user/manage', { id: userId, action: 'disable' }));
    expectRefused(await oauthRound('github', who), '用户已被封禁');
    expectOk(await root.post('/api/user/manage', { id: userId, action: 'delete' }));
    expectRefused(await oauthRound('github', who), '用户已注销');

    const { state, browser } = await beginOAuth(t, t.anonymous());
    expectRefused(await browser.get(`/api/oauth/github?state=${state}`), '无效的参数');
    const next = await beginOAuth(t, t.anonymous());
    expectRefused(
      await next.browser.get(`/api/oauth/github?code=not-a-code&state=${next.state}`),
      'GitHub 授权码无效或已过期，请重新登录',
    );
  });
});

describe('Linux-DO', () => {
  it('exchanges the code with client credentials, creates, signs in and binds', async () => {
    const who = account({ name: 'Penguin' });
    const first = await oauthRound('linuxdo', who);
    expect(expectOk(first)).toMatchObject({ display_name: 'Penguin' });
    expect(expectOk(first).username).toMatch(/^linuxdo_\d+$/);
    const exchange = provider.seen.filter((seen) => seen.path === '/oauth2/token').at(-1)!;
    expect(new URLSearchParams(exchange.body).get('redirect_uri')).toBe(
      'https://gw.example.com/oauth/linuxdo',
    );
    expect(expectOk(await signedIn(t, first).get('/api/user/self')).linux_do_id).toBe(String(who.id));

    const name = uniqueName('ld');
    await createUser(root, name);
    const user = await t.login(name, 'password123');
    const fresh = account();
    expect((await oauthRound('linuxdo', fresh, user)).json()).toMatchObject({
      success: true,
      message: 'bind',
    });
    expectRefused(await oauthRound('linuxdo', who, user), '该 Linux DO 账户已被绑定');
    expect(expectOk(await oauthRound('linuxdo', fresh)).id).toBe(user.userId);
  });

  it('refuses silenced accounts and a disabled provider', async () => {
    expectRefused(await oauthRound('linuxdo', account({ silenced: true })), /未激活或已被禁言/);
    await setOption(root, 'LinuxDOOAuthEnabled', 'false');
    expectRefused(await oauthRound('linuxdo', account()), '管理员未开启通过 Linux DO 登录以及注册');
    await setOption(root, 'LinuxDOOAuthEnabled', 'true');
  });
});

describe('unreachable provider and the critical rate limit', () => {
  let limited: TestApp;
  beforeAll(async () => {
    limited = await buildTestApp({ GITHUB_OAUTH_BASE_URL: 'http://127.0.0.1:9', CRITICAL_RATE_LIMIT: '3' });
    const admin = await limited.login('root', ROOT_PASSWORD);
    await setOption(admin, 'GitHubClientId', 'id');
    await setOption(admin, 'GitHubClientSecret', 'secret');
    await setOption(admin, 'GitHubOAuthEnabled', 'true');
  });
  afterAll(async () => limited?.close());

  it('answers a clear message, then 429 once the critical limit is spent', async () => {
    // The root login above was the first of three critical requests from this address.
    const { state, browser } = await beginOAuth(limited, limited.anonymous());
    expectRefused(await browser.get(`/api/oauth/github?code=abc&state=${state}`), /无法连接至 GitHub 服务器/);
    expect((await limited.anonymous().get('/api/oauth/state')).statusCode).toBe(429);
  });
});
