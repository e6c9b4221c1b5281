import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  api,
  launchBrowser,
  loginAsRoot,
  MOBILE,
  newSession,
  screenshot,
  sessionUserId,
} from '../support/browser';

const MODEL = 'e2e-priced-model';

/** The public pricing page shows the configured model and group ratios. */
describe('pricing', () => {
  let browser: Browser;
  let admin: { context: BrowserContext; page: Page };

  beforeAll(async () => {
    browser = await launchBrowser();
    admin = await newSession(browser);
    await loginAsRoot(admin.page);
    const rootId = await sessionUserId(admin.page);
    const options = await api<{ key: string; value: string }[]>(admin.context, 'GET', '/api/option/', rootId);
    const read = (key: string) =>
      JSON.parse(options.data.find((option) => option.key === key)?.value || '{}');
    const set = async (key: string, value: unknown) => {
      const reply = await api(admin.context, 'PUT', '/api/option/', rootId, {
        key,
        value: JSON.stringify(value),
      });
      expect(reply.success, `${key}: ${reply.message}`).toBe(true);
    };
    await set('ModelRatio', { ...read('ModelRatio'), [MODEL]: 4 });
    await set('CompletionRatio', { ...read('CompletionRatio'), [MODEL]: 3 });
    await set('GroupRatio', { ...read('GroupRatio'), default: 1, vip: 2.5 });
    const channel = await api(admin.context, 'POST', '/api/channel/', rootId, {
      type: 1,
      name: 'e2e-pricing-mock',
      key: 'sk-mock-pricing',
      base_url: inject('mockUrl'),
      models: MODEL,
      group: 'default,vip',
    });
    expect(channel.success, channel.message).toBe(true);
  });
  afterAll(async () => {
    await admin?.context.close();
    await browser?.close();
  });

  it('shows guests the default group prices and the ratios, with fuzzy search', async () => {
    const { context, page } = await newSession(browser);
    await page.goto('/pricing');
    await page.getByText('未登录，当前显示 default 分组的价格，分组倍率为：1').waitFor();
    await page.getByLabel('模糊搜索模型名称').fill('e2eprmod');
    const row = page.getByRole('row').filter({ hasText: MODEL });
    await row.waitFor();
    expect(await page.getByRole('row').count()).toBe(2); // header + the match
    await row.getByText('提示 $8.00 / 1M tokens').waitFor();
    await row.getByText('补全 $24.00 / 1M tokens').waitFor();
    // Model ratio 4 is over 3: an orange tag.
    expect(await row.getByText('模型倍率：4').getAttribute('class')).toContain('orange');
    await screenshot(page, 'pricing');

    await page.getByText(/^vip/).first().click();
    await row.getByText('提示 $20.00 / 1M tokens').waitFor();
    expect(await row.getByText('分组倍率：2.5').getAttribute('class')).toContain('blue');
    await context.close();
  });

  it("shows a logged-in user's group", async () => {
    await admin.page.goto('/pricing');
    await admin.page.getByText('您的分组为：default，分组倍率为：1').waitFor();
    await admin.page.getByRole('row').filter({ hasText: MODEL }).waitFor();
  });

  it('fits a 600 px wide screen', async () => {
    const { context, page } = await newSession(browser, MOBILE);
    await page.goto('/pricing');
    await page.getByRole('row').filter({ hasText: MODEL }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(600);
    await screenshot(page, 'pricing-mobile');
    await context.close();
  });
});
