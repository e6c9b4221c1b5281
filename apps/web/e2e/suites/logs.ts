import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  api,
  launchBrowser,
  loginAsRoot,
  motionsDone,
  newSession,
  screenshot,
  sessionUserId,
} from '../support/browser';

const MODEL = 'e2e-log-model';

/** An administrator reads every user's logs: channel and user columns, user info, filters. */
describe('logs (admin)', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newSession(browser));
    await loginAsRoot(page);
    const rootId = await sessionUserId(page);
    const options = await api<{ key: string; value: string }[]>(context, 'GET', '/api/option/', rootId);
    const ratios = JSON.parse(options.data.find((option) => option.key === 'ModelRatio')?.value || '{}');
    const priced = await api(context, 'PUT', '/api/option/', rootId, {
      key: 'ModelRatio',
      value: JSON.stringify({ ...ratios, [MODEL]: 1 }),
    });
    expect(priced.success, priced.message).toBe(true);
    const channel = await api(context, 'POST', '/api/channel/', rootId, {
      type: 1,
      name: 'e2e-logs-mock',
      key: 'sk-mock-logs',
      base_url: inject('mockUrl'),
      models: MODEL,
      group: 'default',
    });
    expect(channel.success, channel.message).toBe(true);
    const funded = await api(context, 'PUT', '/api/user/', rootId, { id: rootId, quota: 50_000_000 });
    expect(funded.success, funded.message).toBe(true);
    const chat = await context.request.post('/pg/chat/completions', {
      headers: { 'New-Api-User': String(rootId) },
      data: { model: MODEL, messages: [{ role: 'user', content: 'log me' }] },
    });
    expect(chat.status(), await chat.text()).toBe(200);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('shows admin columns, user info and filters by model and type', async () => {
    await page.goto('/log');
    await page.getByRole('columnheader', { name: '渠道' }).waitFor();
    await page.getByRole('columnheader', { name: '重试' }).waitFor();
    await page.getByLabel('模型名称').fill(MODEL);
    const row = page.getByRole('row').filter({ hasText: MODEL }).first();
    for (let attempt = 0; attempt < 10 && !(await row.isVisible()); attempt += 1) {
      await page.getByRole('button', { name: /查\s?询/ }).click();
      await page.waitForTimeout(500);
    }
    await row.waitFor();
    await row.getByLabel('查看用户 root 的信息').click();
    const popover = page.getByRole('tooltip').filter({ hasText: '用户信息' });
    await popover.getByText('剩余额度').waitFor();
    await motionsDone(page);
    await screenshot(page, 'logs-admin', { fullPage: false });
    await page.keyboard.press('Escape');

    await page.getByLabel('日志类型').click();
    await page.getByTitle('充值').click();
    await page.getByRole('button', { name: /查\s?询/ }).click();
    await row.waitFor({ state: 'detached' });
  });
});
