import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, launchBrowser, loginAsRoot, newSession, screenshot, sessionUserId } from '../support/browser';

/** The dashboard appears in the sidebar when data export is on and queries its range. */
describe('dashboard', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newSession(browser));
    await loginAsRoot(page);
    const reply = await api(context, 'PUT', '/api/option/', await sessionUserId(page), {
      key: 'DataExportEnabled',
      value: 'true',
    });
    expect(reply.success, reply.message).toBe(true);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('shows totals and charts for the chosen range', async () => {
    await page.goto('/setting');
    const loaded = page.waitForRequest((request: Request) => request.url().includes('/api/data/?'));
    await page.getByRole('menuitem', { name: /数据看板/ }).click();
    await page.waitForURL('**/detail');
    await page.getByText('调用次数').first().waitFor();
    await page.getByText('平均每小时调用').waitFor();
    const url = new URL((await loaded).url());
    const start = Number(url.searchParams.get('start_timestamp'));
    const end = Number(url.searchParams.get('end_timestamp'));
    expect(end - start).toBeGreaterThan(24 * 3600);
    expect(end - start).toBeLessThan(26 * 3600);

    // Searching again with the same range asks the server again.
    const again = page.waitForRequest((request: Request) => request.url().includes('/api/data/?'));
    await page.getByRole('button', { name: /查\s?询/ }).click();
    await again;
    await screenshot(page, 'dashboard');
  });

  it('fits a 390 px phone: the range pickers of the dashboard and the log filters stay on screen', async () => {
    const phone = await newSession(browser, { width: 390, height: 844 });
    await loginAsRoot(phone.page);
    for (const path of ['/detail', '/log']) {
      await phone.page.goto(path);
      const picker = phone.page.locator('.ant-picker-range').first();
      await picker.waitFor();
      const box = await picker.boundingBox();
      expect((box?.x ?? 0) + (box?.width ?? 0), `${path}: the range picker's right edge`).toBeLessThanOrEqual(
        390,
      );
      const width = await phone.page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, `${path}: the page scrolls sideways`).toBeLessThanOrEqual(390);
    }
    await screenshot(phone.page, 'log-filters-phone');
    await phone.context.close();
  });
});
