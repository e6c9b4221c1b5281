import { mkdirSync } from 'node:fs';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { SCREENSHOT_DIR } from './paths';

/** Debian's Chromium (`apt-get install -y chromium fonts-noto-cjk`). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The server under test (from the global setup). */
export const baseUrl = (): string => inject('baseUrl') ?? process.env.E2E_BASE_URL ?? '';

export const DESKTOP = { width: 1280, height: 800 } as const;
/** The spec's mobile width. */
export const MOBILE = { width: 600, height: 900 } as const;

/**
 * Launches headless Chromium. Playwright adds --headless and its own new, empty --user-data-dir
 * (it refuses a user-data-dir in `args`); the network stays closed to the outside.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

/** Pages of the running test file, for the failure report (failure-report.ts). */
export const openPages = new Set<Page>();

/** A fresh context (empty localStorage and cookies) pointed at the server under test. */
export async function newSession(
  browser: Browser,
  viewport: { width: number; height: number } = DESKTOP,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl(), viewport, locale: 'zh-CN' });
  context.setDefaultTimeout(30_000);
  context.on('page', (opened) => {
    openPages.add(opened);
    opened.once('close', () => openPages.delete(opened));
  });
  const page = await context.newPage();
  return { context, page };
}

/**
 * Saves a screenshot as artifacts/screenshots/<name>.png (full page unless `fullPage: false`, used
 * for dialogs, whose mask covers only the viewport) after fonts are loaded and toasts are gone.
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page
    .locator('.ant-message-notice')
    .first()
    .waitFor({ state: 'detached', timeout: 5_000 })
    .catch(() => undefined);
  await page.waitForLoadState('networkidle').catch(() => undefined);
  // Sticky headers are drawn where the page is scrolled to: capture from the top.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({
    path: `${SCREENSHOT_DIR}/${name}.png`,
    fullPage: options.fullPage ?? true,
    animations: 'disabled',
  });
}

/** A toast message (antd `message`) with the given text. */
export const toast = (page: Page, text: string | RegExp) =>
  page.locator('.ant-message-notice').filter({ hasText: text }).first();

/** Antd puts a space between two CJK characters in buttons ("确 定"). */
export const OK_BUTTON = /^(确\s?定|知道了|OK)$/;

/**
 * Logs in through the login form (Chinese or English UI) and waits for the header's user menu.
 * Returns once the session is stored.
 */
export async function login(page: Page, username: string, password: string): Promise<void> {
  if (!page.url().includes('/login')) await page.goto('/login');
  await page.getByLabel(/用户名或邮箱|Username or e-mail/).fill(username);
  await page.getByLabel(/^(密码|Password)$/).fill(password);
  await page.getByRole('button', { name: /^(登\s?录|Log in)$/ }).click();
  await page.getByTestId('user-menu').waitFor();
}

/** Waits until antd's opening and closing animations (dialogs, popovers, drawers) have finished. */
export async function motionsDone(page: Page): Promise<void> {
  await page.waitForFunction(
    () =>
      !document.querySelector(
        '[class*="-appear-active"], [class*="-enter-active"], [class*="-leave-active"]',
      ),
  );
}

/**
 * Clicks a dialog's button until the dialog is gone: a click that lands while antd's opening
 * animation is still running can be ignored, so one click is not always enough.
 */
export async function closeDialog(dialog: Locator, button: string | RegExp = OK_BUTTON): Promise<void> {
  await dialog.waitFor();
  await motionsDone(dialog.page());
  for (let attempt = 1; ; attempt += 1) {
    await dialog.getByRole('button', { name: button }).click();
    try {
      await dialog.waitFor({ state: 'hidden', timeout: 3_000 });
      return;
    } catch (error) {
      if (attempt >= 4) throw error;
    }
  }
}

/** Logs in as root (default password) and closes the weak-password warning. */
export async function loginAsRoot(page: Page): Promise<void> {
  await login(page, 'root', '123456');
  await closeDialog(page.getByRole('dialog').filter({ hasText: '您正在使用默认密码！' }));
}

/** The console API as the logged-in user of `context` (session cookie plus New-Api-User). */
export async function api<T>(
  context: BrowserContext,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  userId: number,
  body?: unknown,
): Promise<{ success: boolean; message: string; data: T }> {
  const response = await context.request.fetch(path, {
    method,
    headers: { 'New-Api-User': String(userId) },
    ...(body === undefined ? {} : { data: body }),
  });
  if (!response.ok()) throw new Error(`${method} ${path} → HTTP ${response.status()}`);
  return (await response.json()) as { success: boolean; message: string; data: T };
}

/** A username unique within the run (the register form allows at most 12 characters). */
export function uniqueName(prefix: string): string {
  return `${prefix}${Math.random().toString(36).slice(2, 8)}`.slice(0, 12);
}

/** The id of the user stored by the console after login (localStorage `user`). */
export async function sessionUserId(page: Page): Promise<number> {
  const raw = await page.evaluate(() => localStorage.getItem('user'));
  const id = raw ? Number((JSON.parse(raw) as { id?: unknown }).id) : Number.NaN;
  if (!Number.isInteger(id)) throw new Error('no user is stored: log in first');
  return id;
}
