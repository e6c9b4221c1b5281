import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';
import {
  createUser,
  expectOk,
  expectRefused,
  ROOT_PASSWORD,
  setOption,
  uniqueName,
} from './console-support.ts';
import { decodeQuotedPrintable, type SmtpSink, startSmtpSink } from './smtp-sink.ts';

/** E-mail verification and password reset through a real SMTP server. */

let t: TestApp;
let root: ConsoleClient;
let sink: SmtpSink;

beforeAll(async () => {
  [t, sink] = await Promise.all([buildTestApp(), startSmtpSink()]);
  root = await t.login('root', ROOT_PASSWORD);
  await setOption(root, 'SMTPServer', '127.0.0.1');
  await setOption(root, 'SMTPPort', sink.port);
  await setOption(root, 'SMTPFrom', 'noreply@switchyard.test');
  await setOption(root, 'SMTPAccount', '');
  await setOption(root, 'ServerAddress', 'https://gw.example.com/');
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

const anonymous = () => t.anonymous();
const askCode = (email: string) => anonymous().get(`/api/verification?email=${encodeURIComponent(email)}`);
const askReset = (email: string) => anonymous().get(`/api/reset_password?email=${encodeURIComponent(email)}`);
const reset = (email: string, token: string) => anonymous().post('/api/user/reset', { email, token });
const register = (body: Record<string, unknown>) => anonymous().post('/api/user/register', body);
const login = (username: string, password: string) =>
  anonymous().post('/api/user/login', { username, password });

function lastCodeFor(email: string): string {
  const mails = sink.to(email);
  expect(mails.length).toBeGreaterThan(0);
  const code = /<strong>(\d{6})<\/strong>/.exec(mails.at(-1)!.text)?.[1];
  expect(code, mails.at(-1)!.text).toBeDefined();
  return code!;
}

function lastResetTokenFor(email: string): string {
  const text = sink.to(email).at(-1)!.text;
  const link = /href="([^"]+)"/.exec(text)?.[1];
  expect(link).toBeDefined();
  const url = new URL(link!);
  expect(url.origin + url.pathname).toBe('https://gw.example.com/user/reset');
  expect(url.searchParams.get('email')).toBe(email);
  return url.searchParams.get('token')!;
}

it('decodes quoted-printable mail bodies', () => {
  expect(decodeQuotedPrintable('=E9=AA=8C=E8=AF=81=\r\n=E7=A0=81 <strong>12=\r\n3456</strong>')).toBe(
    '验证码 <strong>123456</strong>',
  );
});

describe('e-mail verification at registration', () => {
  beforeAll(async () => setOption(root, 'EmailVerificationEnabled', 'true'));
  afterAll(async () => setOption(root, 'EmailVerificationEnabled', 'false'));

  it('requires the e-mail and the code', async () => {
    expectRefused(
      await register({ username: uniqueName('ev'), password: 'password123' }),
      /请输入邮箱地址和验证码/,
    );
  });

  it('mails a 6-digit code that registers the address once', async () => {
    const email = `${uniqueName('ev')}@example.com`;
    expectOk(await askCode(email));
    const mail = sink.to(email).at(-1)!;
    expect(mail.from).toBe('noreply@switchyard.test');
    expect(mail.headers.from).toContain('noreply@switchyard.test');
    const code = lastCodeFor(email);
    const username = uniqueName('ev');
    const body = { username, password: 'password123', email };
    expectRefused(
      await register({ ...body, verification_code: code === '000000' ? '111111' : '000000' }),
      '验证码错误或已过期',
    );
    expectOk(await register({ ...body, verification_code: code }));
    expect(expectOk(await login(email, 'password123')).username).toBe(username);
    // The address is now taken, for codes and for registration alike.
    expectRefused(await askCode(email), '邮箱地址已被占用');
    expectRefused(
      await register({ ...body, username: uniqueName('ev'), verification_code: code }),
      '邮箱地址已被占用',
    );
  });

  it('keeps the code usable when the username is taken', async () => {
    const email = `${uniqueName('tk')}@example.com`;
    expectOk(await askCode(email));
    const code = lastCodeFor(email);
    const body = { password: 'password123', email, verification_code: code };
    expectRefused(await register({ ...body, username: 'root' }), '用户名已存在，或已注销');
    expectOk(await register({ ...body, username: uniqueName('tk') }));
  });

  it('accepts only the newest code, once', async () => {
    const email = `${uniqueName('nw')}@example.com`;
    expectOk(await askCode(email));
    const first = lastCodeFor(email);
    expectOk(await askCode(email));
    const second = lastCodeFor(email);
    expect(sink.to(email)).toHaveLength(2);
    if (first !== second) {
      expectRefused(
        await register({
          username: uniqueName('nw'),
          password: 'password123',
          email,
          verification_code: first,
        }),
        '验证码错误或已过期',
      );
    }
    expectOk(
      await register({
        username: uniqueName('nw'),
        password: 'password123',
        email,
        verification_code: second,
      }),
    );
  });

  it('refuses a missing or malformed address without sending mail', async () => {
    const before = sink.messages.length;
    expectRefused(await anonymous().get('/api/verification'), '无效的邮箱地址');
    expectRefused(await askCode(''), '无效的邮箱地址');
    expectRefused(await askCode('not-an-address'), '无效的邮箱地址');
    expect(sink.messages.length).toBe(before);
  });
});

describe('e-mail domain whitelist and alias restriction', () => {
  afterAll(async () => {
    await setOption(root, 'EmailDomainRestrictionEnabled', 'false');
    await setOption(root, 'EmailAliasRestrictionEnabled', 'false');
  });

  it('applies the whitelist and the alias rule to codes and registration', async () => {
    await setOption(root, 'EmailDomainWhitelist', 'example.com, allowed.org');
    await setOption(root, 'EmailDomainRestrictionEnabled', 'true');
    expectRefused(await askCode(`${uniqueName('wl')}@other.net`), /白名单/);
    expectOk(await askCode(`${uniqueName('wl')}@allowed.org`));
    expectOk(await askCode(`${uniqueName('wl')}@EXAMPLE.com`));
    await setOption(root, 'EmailVerificationEnabled', 'true');
    try {
      const body = { username: uniqueName('wl'), password: 'password123', verification_code: '123456' };
      expectRefused(await register({ ...body, email: 'someone@other.net' }), /白名单/);
    } finally {
      await setOption(root, 'EmailVerificationEnabled', 'false');
    }

    await setOption(root, 'EmailAliasRestrictionEnabled', 'true');
    expectRefused(await askCode('first+tag@example.com'), /别名限制/);
    expectRefused(await askCode('first.last@example.com'), /别名限制/);
    expectOk(await askCode(`${uniqueName('al')}@example.com`));
  });
});

describe('password reset', () => {
  let username: string;
  let email: string;
  beforeAll(async () => {
    username = uniqueName('pr');
    email = `${username}@example.com`;
    const id = await createUser(root, username);
    expectOk(await root.put('/api/user/', { id, email }));
  });

  it('mails a link whose token sets a new 12-character password, once', async () => {
    expectOk(await askReset(email));
    const token = lastResetTokenFor(email);
    expect(token.length).toBeGreaterThanOrEqual(16);
    const password = expectOk(await reset(email, token));
    expect(password).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(expectOk(await login(username, password)).username).toBe(username);
    expectRefused(await login(username, 'password123'), '用户名或密码错误，或用户已被封禁');
    expectRefused(await reset(email, token), '重置链接非法或已过期');
  });

  it('refuses wrong tokens, tokens for another address and superseded tokens', async () => {
    expectOk(await askReset(email));
    const first = lastResetTokenFor(email);
    expectOk(await askReset(email));
    const second = lastResetTokenFor(email);
    expectRefused(await reset(email, first), '重置链接非法或已过期');
    expectRefused(await reset(email, `${second}x`), '重置链接非法或已过期');
    expectRefused(await reset('other@example.com', second), '重置链接非法或已过期');
    expectRefused(await reset(email, ''), '无效的参数');
    expect(expectOk(await reset(email, second))).toHaveLength(12);
  });

  it('never builds the link from the Host header', async () => {
    await setOption(root, 'ServerAddress', '');
    try {
      const headers = {
        host: 'evil.example',
        'x-forwarded-host': 'evil.example',
        'x-forwarded-proto': 'https',
      };
      expectOk(await anonymous().get(`/api/reset_password?email=${encodeURIComponent(email)}`, headers));
      const text = sink.to(email).at(-1)!.text;
      expect(text).not.toContain('evil.example');
      expect(/href="([^"]+)"/.exec(text)?.[1]).toMatch(/^http:\/\/localhost:\d+\/user\/reset\?/);
    } finally {
      await setOption(root, 'ServerAddress', 'https://gw.example.com');
    }
  });

  it('answers alike for unknown addresses and sends nothing', async () => {
    const before = sink.messages.length;
    expectOk(await askReset('nobody-registered@example.com'));
    expect(sink.messages.length).toBe(before);
    expectRefused(await askReset(''), '无效的参数');
  });

  it('ends the sessions of the user whose password was reset', async () => {
    const name = uniqueName('ps');
    const id = await createUser(root, name);
    expectOk(await root.put('/api/user/', { id, email: `${name}@example.com` }));
    const session = await t.login(name, 'password123');
    expectOk(await askReset(`${name}@example.com`));
    expectOk(await reset(`${name}@example.com`, lastResetTokenFor(`${name}@example.com`)));
    expectRefused(await session.get('/api/user/self'), undefined, 401);
  });
});

describe('mail failures', () => {
  it('reports an unreachable SMTP server and a missing configuration without a 500', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    await setOption(root, 'SMTPPort', port);
    expectRefused(await askCode(`${uniqueName('mf')}@example.com`), /邮件发送失败/);
    await setOption(root, 'SMTPServer', '');
    expectRefused(await askCode(`${uniqueName('mf')}@example.com`), /SMTP 服务器未配置/);
    await setOption(root, 'SMTPServer', '127.0.0.1');
    await setOption(root, 'SMTPPort', sink.port);
  });
});
