import { createHash, createHmac } from 'node:crypto';
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
import { signedIn } from './identity-support.ts';
import { startWeChatServer, type WeChatServerStandin } from './wechat-server-standin.ts';

/** WeChat sign-in and binding through a local WeChat server; Telegram widget sign-in and binding. */

const WECHAT_TOKEN = 'wechat-server-token-value';
const BOT_TOKEN = '7000001:telegram-bot-token-value';

let t: TestApp;
let root: ConsoleClient;
let wechat: WeChatServerStandin;

beforeAll(async () => {
  [t, wechat] = await Promise.all([buildTestApp(), startWeChatServer(WECHAT_TOKEN)]);
  root = await t.login('root', ROOT_PASSWORD);
  await setOption(root, 'WeChatServerAddress', `${wechat.url}/`);
  await setOption(root, 'WeChatServerToken', WECHAT_TOKEN);
  await setOption(root, 'WeChatAuthEnabled', 'true');
  await setOption(root, 'TelegramBotToken', BOT_TOKEN);
  await setOption(root, 'TelegramBotName', 'switchyard_test_bot');
  await setOption(root, 'TelegramOAuthEnabled', 'true');
});
afterAll(async () => {
  await t?.close();
  await wechat?.close();
});

async function newUser(): Promise<ConsoleClient> {
  const name = uniqueName('id');
  await createUser(root, name);
  return t.login(name, 'password123');
}

describe('WeChat', () => {
  const login = (code: string) => t.anonymous().get(`/api/oauth/wechat?code=${code}`);

  it('creates a user on first sign-in and signs the same user in afterwards', async () => {
    const openId = `o-${uniqueName('wx')}`;
    const first = await login(wechat.codeFor(openId));
    const data = expectOk(first);
    expect(data).toMatchObject({ display_name: 'WeChat User' });
    expect(data.username).toMatch(/^wechat_\d+$/);
    expect(expectOk(await signedIn(t, first).get('/api/user/self')).wechat_id).toBe(openId);
    expect(expectOk(await login(wechat.codeFor(openId))).id).toBe(data.id);
    // The server token went in the Authorization header, with no double slash in the address.
    const asked = wechat.seen.at(-1)!;
    expect(asked.headers.authorization).toBe(WECHAT_TOKEN);
    expect(asked.path).toBe('/api/wechat/user');
  });

  it('binds WeChat to the signed-in user and refuses an account bound elsewhere', async () => {
    const user = await newUser();
    const openId = `o-${uniqueName('wx')}`;
    expectOk(await user.get(`/api/oauth/wechat/bind?code=${wechat.codeFor(openId)}`));
    expect(expectOk(await user.get('/api/user/self')).wechat_id).toBe(openId);
    expect(expectOk(await login(wechat.codeFor(openId))).id).toBe(user.userId);
    const other = await newUser();
    expectRefused(
      await other.get(`/api/oauth/wechat/bind?code=${wechat.codeFor(openId)}`),
      '该微信账号已被绑定',
    );
    expectRefused(await t.anonymous().get(`/api/oauth/wechat/bind?code=123456`), undefined, 401);
  });

  it('refuses used, expired and unknown codes, a wrong server token and a disabled login', async () => {
    const code = wechat.codeFor(`o-${uniqueName('wx')}`);
    expectOk(await login(code));
    expectRefused(await login(code), '验证码错误或已过期');
    const stale = wechat.codeFor(`o-${uniqueName('wx')}`);
    wechat.expire(stale);
    expectRefused(await login(stale), '验证码错误或已过期');
    expectRefused(await t.anonymous().get('/api/oauth/wechat'), '无效的参数');

    await setOption(root, 'WeChatServerToken', 'wrong-token');
    expectRefused(await login(wechat.codeFor('o-any')), '无权进行此操作，Token 无效');
    await setOption(root, 'WeChatServerToken', WECHAT_TOKEN);

    await setOption(root, 'WeChatAuthEnabled', 'false');
    expectRefused(await login(wechat.codeFor('o-any')), '管理员未开启通过微信登录以及注册');
    await setOption(root, 'WeChatAuthEnabled', 'true');
  });

  it('refuses a new WeChat account when registration is closed', async () => {
    await setOption(root, 'RegisterEnabled', 'false');
    try {
      expectRefused(await login(wechat.codeFor(`o-${uniqueName('wx')}`)), '管理员关闭了新用户注册');
    } finally {
      await setOption(root, 'RegisterEnabled', 'true');
    }
  });
});

/** Fields as Telegram's widget signs them (written from Telegram's documentation). */
function widget(fields: Record<string, string>, token = BOT_TOKEN): string {
  const lines = Object.keys(fields)
    .sort()
    .map((key) => `${key}=${fields[key]}`)
    .join('\n');
  const hash = createHmac('sha256', createHash('sha256').update(token).digest()).update(lines).digest('hex');
  return new URLSearchParams({ ...fields, hash }).toString();
}

describe('Telegram', () => {
  const now = () => String(Math.floor(Date.now() / 1000));
  const fieldsFor = (id: string, authDate = now()) => ({
    id,
    first_name: 'Ada',
    username: 'ada_tg',
    photo_url: 'https://t.me/i/userpic/ada.jpg',
    auth_date: authDate,
  });

  it('binds a Telegram account, then signs in with it', async () => {
    const telegramId = String(Date.now() % 1_000_000_000);
    const login = () => t.anonymous().get(`/api/oauth/telegram/login?${widget(fieldsFor(telegramId))}`);
    expectRefused(await login(), /该 Telegram 账户未绑定/);
    const user = await newUser();
    expectOk(await user.get(`/api/oauth/telegram/bind?${widget(fieldsFor(telegramId))}`));
    expect(expectOk(await user.get('/api/user/self')).telegram_id).toBe(telegramId);
    const response = await login();
    expect(expectOk(response).id).toBe(user.userId);
    expectOk(await signedIn(t, response).get('/api/user/self'));

    const other = await newUser();
    expectRefused(
      await other.get(`/api/oauth/telegram/bind?${widget(fieldsFor(telegramId))}`),
      '该 Telegram 账户已被绑定',
    );
  });

  it('refuses forged hashes, another bot token, expired data and a disabled login', async () => {
    const user = await newUser();
    const telegramId = String((Date.now() % 1_000_000_000) + 7);
    expectOk(await user.get(`/api/oauth/telegram/bind?${widget(fieldsFor(telegramId))}`));
    const forged = new URLSearchParams(widget(fieldsFor(telegramId)));
    forged.set('id', '1');
    expectRefused(await t.anonymous().get(`/api/oauth/telegram/login?${forged}`), /签名校验失败/);
    expectRefused(
      await t.anonymous().get(`/api/oauth/telegram/login?${widget(fieldsFor(telegramId), '999:other-bot')}`),
      /签名校验失败/,
    );
    const missingHash = new URLSearchParams(fieldsFor(telegramId));
    expectRefused(await t.anonymous().get(`/api/oauth/telegram/login?${missingHash}`), /签名校验失败/);
    const stale = String(Math.floor(Date.now() / 1000) - 2 * 86_400);
    expectRefused(
      await t.anonymous().get(`/api/oauth/telegram/login?${widget(fieldsFor(telegramId, stale))}`),
      /已过期/,
    );
    // A forged bind changes nothing.
    const other = await newUser();
    const forgedBind = new URLSearchParams(widget(fieldsFor('424242')));
    forgedBind.set('id', '434343');
    expectRefused(await other.get(`/api/oauth/telegram/bind?${forgedBind}`), /签名校验失败/);
    expect(expectOk(await other.get('/api/user/self')).telegram_id).toBe('');

    await setOption(root, 'TelegramOAuthEnabled', 'false');
    expectRefused(
      await t.anonymous().get(`/api/oauth/telegram/login?${widget(fieldsFor(telegramId))}`),
      '管理员未开启通过 Telegram 登录以及注册',
    );
    await setOption(root, 'TelegramOAuthEnabled', 'true');
  });

  it('refuses a banned user', async () => {
    const user = await newUser();
    const telegramId = String((Date.now() % 1_000_000_000) + 13);
    expectOk(await user.get(`/api/oauth/telegram/bind?${widget(fieldsFor(telegramId))}`));
    expectOk(await root.post('/api/user/manage', { id: user.userId, action: 'disable' }));
    expectRefused(
      await t.anonymous().get(`/api/oauth/telegram/login?${widget(fieldsFor(telegramId))}`),
      '用户已被封禁',
    );
  });
});
