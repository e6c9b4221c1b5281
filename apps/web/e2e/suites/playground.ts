import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  api,
  launchBrowser,
  login,
  loginAsRoot,
  newSession,
  screenshot,
  sessionUserId,
  uniqueName,
} from '../support/browser';

interface SelfUser {
  quota: number;
  used_quota: number;
}

/**
 * A user chats in the playground (streamed from the mock upstream through a real channel), then
 * finds the consumption row in the logs and the lower balance in the wallet.
 */
describe('playground, logs and balance', () => {
  const username = uniqueName('pg');
  const password = 'playground-pass-1';
  let browser: Browser;
  let admin: { context: BrowserContext; page: Page };
  let context: BrowserContext;
  let page: Page;
  let startQuota = 0;
  let rootId = 0;
  const setOption = async (key: string, value: string) => {
    const reply = await api(admin.context, 'PUT', '/api/option/', rootId, { key, value });
    expect(reply.success, `${key}: ${reply.message}`).toBe(true);
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    admin = await newSession(browser);
    await loginAsRoot(admin.page);
    rootId = await sessionUserId(admin.page);
    const channel = await api(admin.context, 'POST', '/api/channel/', rootId, {
      type: 1,
      name: 'e2e-playground-mock',
      key: 'sk-mock-playground',
      base_url: inject('mockUrl'),
      models: 'gpt-4o-mini',
      group: 'default',
    });
    expect(channel.success, channel.message).toBe(true);
    // A per-call price makes the charge visible in a balance shown with two decimals.
    const options = await api<{ key: string; value: string }[]>(admin.context, 'GET', '/api/option/', rootId);
    const prices = JSON.parse(options.data.find((option) => option.key === 'ModelPrice')?.value || '{}');
    const priced = await api(admin.context, 'PUT', '/api/option/', rootId, {
      key: 'ModelPrice',
      value: JSON.stringify({ ...prices, 'gpt-4o-mini': 0.25 }),
    });
    expect(priced.success, priced.message).toBe(true);
    const created = await api(admin.context, 'POST', '/api/user/', rootId, {
      username,
      password,
      display_name: username,
    });
    expect(created.success, created.message).toBe(true);
    const found = await api<{ items: { id: number }[] }>(
      admin.context,
      'GET',
      `/api/user/search?keyword=${username}`,
      rootId,
    );
    const id = found.data.items[0]?.id ?? 0;
    const funded = await api(admin.context, 'PUT', '/api/user/', rootId, { id, quota: 5_000_000 });
    expect(funded.success, funded.message).toBe(true);

    ({ context, page } = await newSession(browser));
    await login(page, username, password);
    startQuota = (await api<SelfUser>(context, 'GET', '/api/user/self', await sessionUserId(page))).data
      .quota;
    expect(startQuota).toBe(5_000_000);
  });
  afterAll(async () => {
    if (rootId) {
      await setOption('ChatLink', '').catch(() => undefined);
      await setOption('Chats', '[]').catch(() => undefined);
    }
    await admin?.context.close();
    await context?.close();
    await browser?.close();
  });

  it('streams an answer rendered as Markdown', async () => {
    await page.goto('/playground');
    await page.getByText('模型设置').waitFor();
    await page.getByLabel('系统提示词').fill('You are terse.');
    await page.getByLabel('消息', { exact: true }).fill('Tell me about **relays**');
    await page.getByRole('button', { name: /发\s?送/ }).click();
    const reply = page.getByTestId('message-assistant').last();
    await reply.getByText('Hello from mock gpt-4o-mini: Tell me about').waitFor();
    await page.locator('[data-testid="message-assistant"][data-status="complete"]').waitFor();
    // The echoed **relays** is rendered as Markdown (bold), not shown with asterisks.
    expect(await reply.locator('strong').textContent()).toBe('relays');
    await screenshot(page, 'playground');

    await page.getByRole('button', { name: /清除上下文/ }).click();
    await page.getByText('发送一条消息开始对话').waitFor();
  });

  it('shows the consumption row in the logs, with its billing details', async () => {
    await page.goto('/log');
    const row = page.getByRole('row').filter({ hasText: 'gpt-4o-mini' }).first();
    for (let attempt = 0; attempt < 10 && !(await row.isVisible()); attempt += 1) {
      await page.waitForTimeout(500);
      await page.getByRole('button', { name: /查\s?询/ }).click();
    }
    await row.waitFor();
    expect(await row.textContent()).toContain('消费');
    await row.getByRole('button', { name: /展开|expand/i }).click();
    await page.getByText('模型价格 × 分组倍率 = $0.25').waitFor();
    await page.getByTestId('log-stat').getByText('消耗额度：$0.25').waitFor();
    await screenshot(page, 'logs');
  });

  it('shows the lower balance in the wallet', async () => {
    const self = (await api<SelfUser>(context, 'GET', '/api/user/self', await sessionUserId(page))).data;
    expect(self.quota).toBeLessThan(startQuota);
    expect(self.used_quota).toBe(startQuota - self.quota);
    await page.goto('/topup');
    expect(self.quota).toBe(startQuota - 125_000);
    await page.getByText('$9.75', { exact: true }).waitFor();
    await page.getByText('$0.25', { exact: true }).waitFor();
    await screenshot(page, 'wallet-after-chat');
  });

  it('opens a configured chat in a frame with the first enabled key, and chat2link redirects', async () => {
    const base = inject('baseUrl');
    await setOption('Chats', JSON.stringify([{ 'E2E Chat': `${base}/about?key={key}&server={address}` }]));
    await page.goto('/chat/0');
    await page.getByText('当前没有可用的启用令牌，请确认是否有令牌处于启用状态！').waitFor();
    await page.waitForURL('**/token');

    const userId = await sessionUserId(page);
    const token = await api(context, 'POST', '/api/token/', userId, {
      name: 'chat',
      remain_quota: 500000,
      expired_time: -1,
    });
    expect(token.success, token.message).toBe(true);
    await page.goto('/chat/0');
    const frame = page.locator('iframe[title="聊天"]');
    await frame.waitFor();
    const src = new URL((await frame.getAttribute('src')) ?? '');
    expect(src.pathname).toBe('/about');
    expect(src.searchParams.get('key')).toMatch(/^sk-\w{16,}$/);
    expect(src.searchParams.get('server')).toBe(base);
    await screenshot(page, 'chat');

    await setOption('ChatLink', `${base}/pricing`);
    await page.goto('/chat2link');
    await page.waitForURL(/\/pricing\/#\/\?settings=/);
    const settings = JSON.parse(decodeURIComponent(page.url().split('settings=')[1] ?? ''));
    expect(settings.key).toBe(src.searchParams.get('key'));
    expect(settings.url).toBe(base);
  });
});
