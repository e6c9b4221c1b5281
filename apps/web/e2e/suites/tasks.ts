import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, launchBrowser, loginAsRoot, newSession, screenshot, sessionUserId } from '../support/browser';

/** Drawing and async task lists: reachable from the sidebar when enabled, filters sent to the server. */
describe('drawing and task lists', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newSession(browser));
    await loginAsRoot(page);
    const rootId = await sessionUserId(page);
    for (const key of ['DrawingEnabled', 'TaskEnabled']) {
      const reply = await api(context, 'PUT', '/api/option/', rootId, { key, value: 'true' });
      expect(reply.success, `${key}: ${reply.message}`).toBe(true);
    }
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('filters drawing tasks by id and channel', async () => {
    await page.goto('/setting');
    await page.getByRole('menuitem', { name: /绘图/ }).click();
    await page.waitForURL('**/midjourney');
    await page.getByText('绘图任务').waitFor();
    await page.getByRole('columnheader', { name: '结果图片' }).waitFor();
    await page.getByLabel('任务 ID').fill('mj-e2e-1');
    await page.getByLabel('渠道 ID').fill('3');
    const queried = page.waitForRequest((request: Request) => request.url().includes('/api/mj/?'));
    await page.getByRole('button', { name: /查\s?询/ }).click();
    const url = new URL((await queried).url());
    expect(url.searchParams.get('mj_id')).toBe('mj-e2e-1');
    expect(url.searchParams.get('channel_id')).toBe('3');
    expect(url.searchParams.get('p')).toBe('0');
    await screenshot(page, 'midjourney');
  });

  it('filters async tasks by id', async () => {
    await page.getByRole('menuitem', { name: /异步任务/ }).click();
    await page.waitForURL('**/task');
    await page.getByRole('columnheader', { name: '平台' }).waitFor();
    await page.getByLabel('任务 ID').fill('suno-e2e-1');
    const queried = page.waitForRequest((request: Request) => request.url().includes('/api/task/?'));
    await page.getByRole('button', { name: /查\s?询/ }).click();
    const url = new URL((await queried).url());
    expect(url.searchParams.get('task_id')).toBe('suno-e2e-1');
    await screenshot(page, 'tasks');
  });
});
