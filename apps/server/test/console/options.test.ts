import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRICE_OPTIONS } from '../../src/billing/pricing/default-ratios.ts';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';
import { expectOk, expectRefused, ROOT_PASSWORD, readOption, setOption } from './console-support.ts';

/** Site options (GET/PUT /api/option/), the public status, model ratio reset and log clearing. */

let t: TestApp;
let root: ConsoleClient;

beforeAll(async () => {
  // No SESSION_SECRET: the generated one is stored in the options table and must stay hidden.
  t = await buildTestApp({ SESSION_SECRET: '' });
  root = await t.login('root', ROOT_PASSWORD);
});
afterAll(async () => t.close());

const put = (key: string, value: unknown) => root.put('/api/option/', { key, value });
const storedRow = (key: string) =>
  t.app.services.database.db.selectFrom('options').select('value').where('key', '=', key).executeTakeFirst();
const status = async () => expectOk(await t.anonymous().get('/api/status'));

describe('GET /api/option/', () => {
  it('hides every key ending in Token, Secret or Key except TurnstileSiteKey, and the session secret', async () => {
    const secrets = {
      EpayKey: 'epay-secret-value',
      SMTPToken: 'smtp-secret-value',
      TurnstileSecretKey: 'turnstile-secret-value',
      GitHubClientSecret: 'github-secret-value',
      LinuxDOClientSecret: 'linuxdo-secret-value',
      WorkerValidKey: 'worker-secret-value',
      TelegramBotToken: 'telegram-secret-value',
      WeChatServerToken: 'wechat-secret-value',
    };
    for (const [key, value] of Object.entries(secrets)) await setOption(root, key, value);
    await setOption(root, 'TurnstileSiteKey', 'site-key-is-public');
    await setOption(root, 'GitHubClientId', 'public-client-id');
    const response = await root.get('/api/option/');
    const items = expectOk(response) as Array<{ key: string; value: string }>;
    const keys = items.map((item) => item.key);
    expect(keys.filter((key) => /(Token|Secret|Key)$/.test(key))).toEqual(['TurnstileSiteKey']);
    expect(items.find((item) => item.key === 'TurnstileSiteKey')?.value).toBe('site-key-is-public');
    expect(items.find((item) => item.key === 'GitHubClientId')?.value).toBe('public-client-id');
    expect(keys).toContain('SystemName');
    expect(items.every((item) => typeof item.value === 'string')).toBe(true);
    const sessionSecret = (await storedRow('SessionSecret'))?.value;
    expect(sessionSecret).toBeTruthy();
    for (const hidden of [...Object.values(secrets), sessionSecret!])
      expect(response.body).not.toContain(hidden);
    expect(keys).not.toContain('SessionSecret');
    // The secrets are write-only but really saved.
    expect((await storedRow('EpayKey'))?.value).toBe('epay-secret-value');
  });

  it('refuses to write unknown and internal keys', async () => {
    expectRefused(await put('NoSuchOption', 'x'), '未知的配置项 NoSuchOption');
    expectRefused(await put('SessionSecret', 'stolen'), '未知的配置项 SessionSecret');
    expect((await storedRow('SessionSecret'))?.value).not.toBe('stolen');
    expect(await storedRow('NoSuchOption')).toBeUndefined();
  });
});

describe('PUT /api/option/ validation', () => {
  const JSON_KEYS = [
    'GroupRatio',
    'UserUsableGroups',
    'Chats',
    'ModelPrice',
    'ModelRatio',
    'CompletionRatio',
    'TopupGroupRatio',
    'gemini.safety_settings',
    'gemini.version_settings',
    'claude.model_headers_settings',
    'claude.default_max_tokens',
  ];
  it.each(JSON_KEYS)('refuses invalid JSON for %s and keeps the old value', async (key) => {
    const before = await readOption(root, key);
    for (const bad of ['{"a":', 'not json', '']) {
      expectRefused(await put(key, bad), '不是合法的 JSON 字符串');
    }
    expect(await readOption(root, key)).toBe(before);
    expect((await storedRow(key))?.value ?? before).toBe(before);
  });

  it('checks the shape of ratio maps', async () => {
    expectRefused(await put('GroupRatio', '{"default":-1}'), /不能为负数/);
    expectRefused(await put('GroupRatio', '{"default":"1"}'), /必须是数字/);
    expectRefused(await put('GroupRatio', '[1,2]'), '不是合法的 JSON 字符串');
    expectRefused(await put('Chats', '{"a":"b"}'), '不是合法的 JSON 字符串');
    expectRefused(await put('UserUsableGroups', '{"vip":1}'), /必须是字符串/);
    await setOption(root, 'GroupRatio', '{"default":1,"vip":1.5,"svip":1}');
    expect(await readOption(root, 'GroupRatio')).toBe('{"default":1,"vip":1.5,"svip":1}');
  });

  it.each(['ServerAddress', 'WorkerUrl', 'PayAddress', 'WeChatServerAddress', 'CustomCallbackAddress'])(
    'removes the trailing slash of %s',
    async (key) => {
      await setOption(root, key, 'https://host.example.com/base///');
      expect(await readOption(root, key)).toBe('https://host.example.com/base');
      expectRefused(await put(key, 'ftp://host.example.com'), /http/);
      await setOption(root, key, '');
      expect(await readOption(root, key)).toBe('');
    },
  );

  it.each([
    ['DataExportInterval', 0, false],
    ['DataExportInterval', 1, true],
    ['SMTPPort', 0, false],
    ['SMTPPort', 65536, false],
    ['SMTPPort', 'abc', false],
    ['SMTPPort', 25, true],
    ['MinTopUp', 0, false],
    ['QuotaPerUnit', 0, false],
    ['RetryTimes', -1, false],
    ['RetryTimes', 1.5, false],
    ['RetryTimes', 3, true],
    ['QuotaRemindThreshold', -1, false],
    ['ChannelDisableThreshold', 0, true],
    ['ModelRequestRateLimitCount', 0, true],
    ['ModelRequestRateLimitSuccessCount', 0, false],
    ['ModelRequestRateLimitDurationMinutes', 0, true],
    ['claude.thinking_adapter_budget_tokens_percentage', 0.05, false],
    ['claude.thinking_adapter_budget_tokens_percentage', 1.01, false],
    ['claude.thinking_adapter_budget_tokens_percentage', 0.5, true],
    ['QuotaForNewUser', '', false],
    ['DataExportDefaultTime', 'month', false],
    ['DataExportDefaultTime', 'day', true],
    ['DrawingEnabled', 'yes', false],
    ['DrawingEnabled', false, true],
  ] as Array<[string, string | number | boolean, boolean]>)(
    '%s = %j accepted: %s',
    async (key, value, accepted) => {
      const before = await readOption(root, key);
      const response = await put(key, value);
      if (accepted) {
        expectOk(response);
        expect(await readOption(root, key)).toBe(String(value));
      } else {
        expectRefused(response);
        expect(await readOption(root, key)).toBe(before);
      }
    },
  );

  it('refuses to enable a login method or a restriction before its settings are filled', async () => {
    await setOption(root, 'GitHubClientId', '');
    expectRefused(await put('GitHubOAuthEnabled', 'true'), /GitHub/);
    expect(await readOption(root, 'GitHubOAuthEnabled')).toBe('false');
    await setOption(root, 'GitHubClientId', 'client-id');
    await setOption(root, 'GitHubClientSecret', 'client-secret');
    await setOption(root, 'GitHubOAuthEnabled', true);
    expect((await status()).github_oauth).toBe(true);
    await setOption(root, 'GitHubOAuthEnabled', false);
    await setOption(root, 'EmailDomainWhitelist', '');
    expectRefused(await put('EmailDomainRestrictionEnabled', 'true'), /邮箱域名/);
    await setOption(root, 'TurnstileSecretKey', '');
    expectRefused(await put('TurnstileCheckEnabled', 'true'), /Turnstile/);
  });

  it('refuses a value too long for the options column on every database', async () => {
    expectRefused(await put('Notice', 'x'.repeat(70_000)), /过长/);
    await setOption(root, 'Notice', '公告'.repeat(1000));
    expect(expectOk(await t.anonymous().get('/api/notice'))).toBe('公告'.repeat(1000));
  });
});

describe('GET /api/status', () => {
  const FIELDS = [
    'version',
    'start_time',
    'email_verification',
    'github_oauth',
    'github_client_id',
    'linuxdo_oauth',
    'linuxdo_client_id',
    'telegram_oauth',
    'telegram_bot_name',
    'system_name',
    'logo',
    'footer_html',
    'wechat_qrcode',
    'wechat_login',
    'server_address',
    'price',
    'min_topup',
    'turnstile_check',
    'turnstile_site_key',
    'top_up_link',
    'docs_link',
    'quota_per_unit',
    'display_in_currency',
    'enable_batch_update',
    'enable_drawing',
    'enable_task',
    'enable_data_export',
    'data_export_default_time',
    'default_collapse_sidebar',
    'enable_online_topup',
    'mj_notify_enabled',
    'chats',
    'demo_site_enabled',
    'self_use_mode_enabled',
    'oidc_enabled',
    'oidc_client_id',
    'oidc_authorization_endpoint',
    'setup',
    'chat_link',
    'chat_link2',
  ];
  it('lists every field of the reference', async () => {
    const data = await status();
    for (const field of FIELDS) expect(data, field).toHaveProperty(field);
    expect(typeof data.quota_per_unit).toBe('number');
    expect(Array.isArray(data.chats)).toBe(true);
    expect(data.setup).toBe(true);
  });

  it('shows saved options at once', async () => {
    await setOption(root, 'SystemName', '测试网关');
    await setOption(root, 'QuotaPerUnit', 1000);
    await setOption(root, 'DisplayInCurrencyEnabled', 'false');
    await setOption(root, 'SelfUseModeEnabled', 'true');
    await setOption(root, 'Chats', JSON.stringify([{ Chat: 'https://chat.example.com/?key={key}' }]));
    await setOption(root, 'ChatLink', 'https://chat.example.com');
    await setOption(root, 'ChatLink2', 'https://chat2.example.com');
    await setOption(root, 'Footer', '<b>footer</b>');
    await setOption(root, 'About', 'about text');
    expect(await status()).toMatchObject({
      system_name: '测试网关',
      quota_per_unit: 1000,
      display_in_currency: false,
      self_use_mode_enabled: true,
      chats: [{ Chat: 'https://chat.example.com/?key={key}' }],
      chat_link: 'https://chat.example.com',
      chat_link2: 'https://chat2.example.com',
      footer_html: '<b>footer</b>',
    });
    expect(expectOk(await t.anonymous().get('/api/about'))).toBe('about text');
  });

  it('computes enable_online_topup from PayAddress, EpayId and EpayKey', async () => {
    await setOption(root, 'EpayKey', '');
    await setOption(root, 'PayAddress', 'https://pay.example.com/');
    await setOption(root, 'EpayId', '1001');
    expect((await status()).enable_online_topup).toBe(false);
    await setOption(root, 'EpayKey', 'epay-key');
    expect((await status()).enable_online_topup).toBe(true);
    await setOption(root, 'PayAddress', '');
    expect((await status()).enable_online_topup).toBe(false);
  });
});

describe('model ratio reset and log clearing', () => {
  it('restores the four price tables from the model catalogue', async () => {
    for (const key of Object.keys(DEFAULT_PRICE_OPTIONS)) await setOption(root, key, '{"only-model":3}');
    expect(await readOption(root, 'CacheRatio')).toBe('{"only-model":3}');
    const response = await root.post('/api/option/rest_model_ratio');
    expectOk(response);
    for (const [key, table] of Object.entries(DEFAULT_PRICE_OPTIONS)) {
      expect(JSON.parse((await readOption(root, key))!)).toEqual(table);
      expect(JSON.parse((await storedRow(key))!.value!)).toEqual(table);
    }
    expect(JSON.parse((await readOption(root, 'ModelRatio'))!)['claude-sonnet-4-5-20250929']).toBe(1.5);
    expect(JSON.parse((await readOption(root, 'CompletionRatio'))!)['gpt-5']).toBe(8);
  });

  it('deletes only logs older than target_timestamp and returns the count', async () => {
    const db = t.app.services.logDatabase.db;
    await db.deleteFrom('logs').execute();
    await db
      .insertInto('logs')
      .values(
        [1000, 2000, 2499, 2500, 3000].map((created_at) => ({
          created_at,
          type: 4,
          content: `at ${created_at}`,
        })),
      )
      .execute();
    expectRefused(await root.delete('/api/log/'), 'target timestamp is required');
    expectRefused(await root.delete('/api/log/?target_timestamp=0'), 'target timestamp is required');
    expectRefused(await root.delete('/api/log/?target_timestamp=abc'));
    expect(expectOk(await root.delete('/api/log/?target_timestamp=2500'))).toBe(3);
    const left = await db.selectFrom('logs').select('created_at').orderBy('created_at').execute();
    expect(left.map((row) => Number(row.created_at))).toEqual([2500, 3000]);
    expect(expectOk(await root.delete('/api/log/?target_timestamp=2500'))).toBe(0);
  });
});
