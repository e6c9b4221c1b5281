import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  baseUrl,
  closeDialog,
  launchBrowser,
  loginAsRoot,
  MOBILE,
  newSession,
  screenshot,
  sessionUserId,
} from '../support/browser';

interface PublicStatus {
  system_name: string;
  version: string;
}

describe('home and about pages', () => {
  let browser: Browser;
  let admin: BrowserContext;
  let adminId: number;
  let status: PublicStatus;

  const setOption = async (key: string, value: string) => {
    const reply = await api(admin, 'PUT', '/api/option/', adminId, { key, value });
    expect(reply.success, reply.message).toBe(true);
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    const session = await newSession(browser);
    admin = session.context;
    await loginAsRoot(session.page);
    adminId = await sessionUserId(session.page);
    status = (await (await fetch(`${baseUrl()}/api/status`)).json()).data as PublicStatus;
  });

  afterAll(async () => {
    if (admin) {
      for (const key of ['Notice', 'HomePageContent', 'About']) await setOption(key, '');
      await admin.close();
    }
    await browser?.close();
  });

  it('shows the default landing with the API address when no home content is set', async () => {
    const { context, page } = await newSession(browser);
    await page.goto('/');
    await page.getByTestId('default-landing').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(status.system_name);
    expect(await page.getByTestId('api-base-url').inputValue()).toBe(baseUrl());
    expect(
      await page
        .getByRole('link', { name: /登\s?录/ })
        .first()
        .getAttribute('href'),
    ).toBe('/login');
    // The landing's own pricing button (the header has a pricing entry too, now that /pricing exists).
    expect(
      await page.getByTestId('default-landing').getByRole('link', { name: '模型价格' }).getAttribute('href'),
    ).toBe('/pricing');
    // The home page is bare: no sidebar, no content padding.
    expect(await page.getByRole('complementary').count()).toBe(0);
    expect(await page.getByTestId('app-content').evaluate((node) => getComputedStyle(node).padding)).toBe(
      '0px',
    );
    await screenshot(page, 'home');

    await page.getByRole('button', { name: '切换主题' }).click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.mouse.move(640, 780);
    await page.getByRole('tooltip').waitFor({ state: 'hidden' });
    await screenshot(page, 'home-dark');
    await context.close();
  });

  it('lays the home page out for a 600 px wide screen', async () => {
    const { context, page } = await newSession(browser, MOBILE);
    await page.goto('/');
    await page.getByTestId('default-landing').waitFor();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(MOBILE.width);
    await screenshot(page, 'home-mobile');
    await context.close();
  });

  it('shows a default about text with the server version', async () => {
    const { context, page } = await newSession(browser);
    await page.goto('/');
    await page.getByRole('banner').getByRole('link', { name: '关于' }).click();
    await page.getByTestId('default-about').waitFor();
    expect(new URL(page.url()).pathname).toBe('/about');
    expect(await page.getByTestId('about-version').textContent()).toBe(status.version);
    await screenshot(page, 'about');
    await context.close();
  });

  it('renders administrator content safely and shows each notice once', async () => {
    await setOption('Notice', 'E2E notice **one**');
    await setOption(
      'HomePageContent',
      '# Welcome to E2E\n\n<img src="/logo.svg" alt="e2e logo" width="64" onerror="window.__xss = 1"><script>window.__xss = 2</script>\n\n- first item',
    );
    const { context, page } = await newSession(browser);
    await page.goto('/');
    const notice = page.getByRole('dialog', { name: '公告' });
    await notice.waitFor();
    expect(await notice.textContent()).toContain('E2E notice one');
    await screenshot(page, 'home-notice', { fullPage: false });
    await closeDialog(notice, '关闭公告');
    expect(await page.evaluate(() => localStorage.getItem('notice'))).toBe('E2E notice **one**');

    await page.getByRole('heading', { name: 'Welcome to E2E' }).waitFor();
    expect(await page.getByAltText('e2e logo').getAttribute('onerror')).toBeNull();
    expect(await page.getByTestId('site-content').locator('script').count()).toBe(0);
    expect(await page.evaluate(() => (window as { __xss?: number }).__xss)).toBeUndefined();
    await screenshot(page, 'home-custom-content');

    // The same notice is not shown again...
    const noticeLoaded = page.waitForResponse((response) => response.url().endsWith('/api/notice'));
    await page.reload();
    await noticeLoaded;
    await page.getByRole('heading', { name: 'Welcome to E2E' }).waitFor();
    await page.waitForTimeout(300);
    expect(await page.getByRole('dialog', { name: '公告' }).count()).toBe(0);

    // ...but a changed one is.
    await setOption('Notice', 'E2E notice **two**');
    await page.reload();
    await page.getByRole('dialog', { name: '公告' }).filter({ hasText: 'E2E notice two' }).waitFor();
    await context.close();
  });

  it('embeds a home page URL in a frame filling the page', async () => {
    const target = `${baseUrl()}/api/status`;
    await setOption('HomePageContent', target);
    const { context, page } = await newSession(browser);
    await page.addInitScript(() => localStorage.setItem('notice', 'E2E notice **two**'));
    await page.goto('/');
    const frame = page.getByTitle('首页内容');
    await frame.waitFor();
    expect(await frame.getAttribute('src')).toBe(target);
    const box = await frame.boundingBox();
    expect(box?.width).toBe(1280);
    expect(box?.height).toBeGreaterThan(700);
    const frameText = await page.frameLocator('iframe[title="首页内容"]').locator('body').textContent();
    expect(frameText).toContain('"success":true');
    await context.close();
  });

  it('renders the About option as Markdown, or a URL in a frame', async () => {
    await setOption(
      'About',
      '## About E2E\n\n<a href="javascript:window.__xss=3">bad link</a> and <b>bold</b>',
    );
    const { context, page } = await newSession(browser);
    await page.goto('/about');
    await page.getByRole('heading', { name: 'About E2E' }).waitFor();
    expect(await page.getByText('bad link').getAttribute('href')).toBeNull();
    await screenshot(page, 'about-custom-content');

    await setOption('About', `${baseUrl()}/api/status`);
    await page.reload();
    const frame = page.getByTitle('关于');
    await frame.waitFor();
    expect(await frame.getAttribute('src')).toBe(`${baseUrl()}/api/status`);
    await context.close();
  });
});
