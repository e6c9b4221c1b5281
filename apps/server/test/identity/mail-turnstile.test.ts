import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUser,
  expectOk,
  expectRefused,
  ROOT_PASSWORD,
  readOption,
  setOption,
  uniqueName,
} from '../console/console-support.ts';
import { type SmtpSink, startSmtpSink } from '../console/smtp-sink.ts';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';
import { startTurnstile, type TurnstileStandin } from './turnstile-standin.ts';

/** E-mail binding with codes received by a real SMTP server (with authentication); Turnstile checks. */

const SMTP_ACCOUNT = 'mailer@switchyard.test';
const SMTP_PASSWORD = 'smtp-password-value';
const TURNSTILE_SECRET = 'turnstile-secret-value';

let t: TestApp;
let root: ConsoleClient;
let sink: SmtpSink;
let turnstile: TurnstileStandin;

beforeAll(async () => {
  [sink, turnstile] = await Promise.all([
    startSmtpSink({ auth: { user: SMTP_ACCOUNT, pass: SMTP_PASSWORD } }),
    startTurnstile(TURNSTILE_SECRET),
  ]);
  t = await buildTestApp({ TURNSTILE_VERIFY_URL: turnstile.verifyUrl });
  root = await t.login('root', ROOT_PASSWORD);
  expect(await readOption(root, 'SMTPPort')).toBe('587');
  await setOption(root, 'SMTPServer', '127.0.0.1');
  await setOption(root, 'SMTPPort', sink.port);
  await setOption(root, 'SMTPAccount', SMTP_ACCOUNT);
  await setOption(root, 'SMTPToken', SMTP_PASSWORD);
  await setOption(root, 'SMTPFrom', '');
});
afterAll(async () => {
  await t?.close();
  await sink?.close();
  await turnstile?.close();
});

const askCode = (email: string, client = t.anonymous()) =>
  client.get(`/api/verification?email=${encodeURIComponent(email)}`);
const bind = (client: ConsoleClient, email: string, code: string) =>
  client.get(`/api/oauth/email/bind?email=${encodeURIComponent(email)}&code=${code}`);

function codeIn(email: string): string {
  const mail = sink.to(email).at(-1);
  const code = mail && /<strong>(\d{6})<\/strong>/.exec(mail.text)?.[1];
  expect(code, mail?.text).toBeTruthy();
  return code!;
}

async function newUser(): Promise<ConsoleClient> {
  const name = uniqueName('em');
  await createUser(root, name);
  return t.login(name, 'password123');
}

describe('e-mail binding', () => {
  it('binds the address whose mailed code is shown, once', async () => {
    const user = await newUser();
    const email = `${uniqueName('bd')}@example.com`;
    expectOk(await askCode(email, user));
    const mail = sink.to(email).at(-1)!;
    // Authenticated as SMTPAccount; SMTPFrom empty falls back to the account.
    expect(mail.authUser).toBe(SMTP_ACCOUNT);
    expect(mail.from).toBe(SMTP_ACCOUNT);
    const code = codeIn(email);
    expectRefused(await bind(user, email, code === '000000' ? '111111' : '000000'), '验证码错误或已过期');
    expectOk(await bind(user, email, code));
    expect(expectOk(await user.get('/api/user/self')).email).toBe(email);
    expectRefused(await bind(user, email, code), '验证码错误或已过期');
    // The bound address now signs in and is taken for codes.
    expect(
      expectOk(await t.anonymous().post('/api/user/login', { username: email, password: 'password123' })).id,
    ).toBe(user.userId);
    expectRefused(await askCode(email), '邮箱地址已被占用');
  });

  it('refuses expired codes, addresses taken meanwhile, bad input and anonymous callers', async () => {
    const user = await newUser();
    const email = `${uniqueName('ex')}@example.com`;
    expectOk(await askCode(email));
    const code = codeIn(email);
    await t.app.services.database.db
      .updateTable('verifications')
      .set({ expires_at: Math.floor(Date.now() / 1000) - 1 })
      .where('subject', '=', email)
      .execute();
    expectRefused(await bind(user, email, code), '验证码错误或已过期');

    const taken = `${uniqueName('tk')}@example.com`;
    expectOk(await askCode(taken));
    const takenCode = codeIn(taken);
    const holder = await createUser(root, uniqueName('hd'));
    expectOk(await root.put('/api/user/', { id: holder, email: taken }));
    expectRefused(await bind(user, taken, takenCode), '邮箱地址已被占用');

    expectRefused(await user.get('/api/oauth/email/bind?email=a@example.com'), '无效的参数');
    expectRefused(await bind(user, 'not-an-address', '123456'), '无效的邮箱地址');
    expectRefused(await bind(t.anonymous(), email, code), undefined, 401);
  });

  it('applies the domain whitelist and the alias restriction to binding', async () => {
    const user = await newUser();
    await setOption(root, 'EmailDomainWhitelist', 'example.com');
    await setOption(root, 'EmailDomainRestrictionEnabled', 'true');
    await setOption(root, 'EmailAliasRestrictionEnabled', 'true');
    try {
      expectRefused(await bind(user, 'someone@other.net', '123456'), /白名单/);
      expectRefused(await bind(user, 'some+one@example.com', '123456'), /别名限制/);
    } finally {
      await setOption(root, 'EmailDomainRestrictionEnabled', 'false');
      await setOption(root, 'EmailAliasRestrictionEnabled', 'false');
    }
  });

  it('uses SMTPFrom, and reports a wrong SMTP password or implicit TLS against a plain server', async () => {
    await setOption(root, 'SMTPFrom', 'noreply@switchyard.test');
    const email = `${uniqueName('fr')}@example.com`;
    expectOk(await askCode(email));
    expect(sink.to(email).at(-1)!.from).toBe('noreply@switchyard.test');

    const before = sink.messages.length;
    await setOption(root, 'SMTPToken', 'wrong-password');
    expectRefused(await askCode(`${uniqueName('wp')}@example.com`), /邮件发送失败/);
    await setOption(root, 'SMTPToken', SMTP_PASSWORD);
    await setOption(root, 'SMTPSSLEnabled', 'true');
    expectRefused(await askCode(`${uniqueName('tl')}@example.com`), /邮件发送失败/);
    await setOption(root, 'SMTPSSLEnabled', 'false');
    expect(sink.messages.length).toBe(before);
    // Secrets stay write-only.
    expect(await readOption(root, 'SMTPToken')).toBeUndefined();
  });
});

describe('Turnstile', () => {
  beforeAll(async () => {
    await setOption(root, 'TurnstileSiteKey', 'site-key');
    await setOption(root, 'TurnstileSecretKey', TURNSTILE_SECRET);
    await setOption(root, 'TurnstileCheckEnabled', 'true');
  });
  afterAll(async () => setOption(root, 'TurnstileCheckEnabled', 'false'));

  const anonymous = () => t.anonymous();

  it('guards login: missing and wrong answers are refused, a human token passes once', async () => {
    const login = (query: string) =>
      anonymous().post(`/api/user/login${query}`, { username: 'root', password: ROOT_PASSWORD });
    expectRefused(await login(''), 'Turnstile token 为空');
    expectRefused(await login('?turnstile=made-up'), 'Turnstile 校验失败，请刷新重试！');
    const token = turnstile.passToken();
    expect(expectOk(await login(`?turnstile=${token}`)).username).toBe('root');
    expectRefused(await login(`?turnstile=${token}`), 'Turnstile 校验失败，请刷新重试！');
    const asked = new URLSearchParams(turnstile.seen.at(-1)!.body);
    expect(asked.get('secret')).toBe(TURNSTILE_SECRET);
    expect(asked.get('remoteip')).toBe('127.0.0.1');
  });

  it('guards registration, verification codes and password reset', async () => {
    const username = uniqueName('ts');
    const body = { username, password: 'password123' };
    expectRefused(await anonymous().post('/api/user/register', body), 'Turnstile token 为空');
    expectOk(await anonymous().post(`/api/user/register?turnstile=${turnstile.passToken()}`, body));

    const email = `${uniqueName('ts')}@example.com`;
    expectRefused(await askCode(email), 'Turnstile token 为空');
    expectRefused(
      await anonymous().get(`/api/verification?email=${email}&turnstile=wrong`),
      'Turnstile 校验失败，请刷新重试！',
    );
    expectOk(await anonymous().get(`/api/verification?email=${email}&turnstile=${turnstile.passToken()}`));
    expect(sink.to(email)).toHaveLength(1);

    expectRefused(await anonymous().get(`/api/reset_password?email=${email}`), 'Turnstile token 为空');
    expectOk(await anonymous().get(`/api/reset_password?email=${email}&turnstile=${turnstile.passToken()}`));
  });

  it('refuses a token checked with the wrong secret', async () => {
    await setOption(root, 'TurnstileSecretKey', 'another-secret');
    try {
      expectRefused(
        await anonymous().get(`/api/reset_password?email=a@example.com&turnstile=${turnstile.passToken()}`),
        'Turnstile 校验失败，请刷新重试！',
      );
    } finally {
      await setOption(root, 'TurnstileSecretKey', TURNSTILE_SECRET);
    }
  });
});
