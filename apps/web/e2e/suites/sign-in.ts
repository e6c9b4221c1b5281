import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeDialog, launchBrowser, login, newSession, screenshot } from '../support/browser';

describe('sign-in pages', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('shows the login and register pages', async () => {
    const { context, page } = await newSession(browser);
    await page.goto('/login');
    await page.getByRole('heading', { name: '用户登录' }).waitFor();
    await screenshot(page, 'login');

    await page.getByRole('link', { name: '点击注册' }).click();
    await page.getByRole('heading', { name: '新用户注册' }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/register');
    await screenshot(page, 'register');
    await context.close();
  });

  it('warns root about the default password after logging in', async () => {
    const { context, page } = await newSession(browser);
    await login(page, 'root', '123456');
    const warning = page.getByRole('dialog').filter({ hasText: '您正在使用默认密码！' });
    await warning.waitFor();
    expect(await warning.textContent()).toContain('请立刻修改默认密码！');
    await screenshot(page, 'login-weak-password-warning', { fullPage: false });
    await closeDialog(warning);
    expect(await page.getByTestId('user-menu').textContent()).toContain('root');
    await context.close();
  });

  it('rejects a wrong password and stays on the login page', async () => {
    const { context, page } = await newSession(browser);
    await page.goto('/login');
    await page.getByLabel('用户名或邮箱').fill('root');
    await page.getByLabel('密码').fill('wrong-password');
    await page.getByRole('button', { name: /^登\s?录$/ }).click();
    await page.locator('.ant-message-error').first().waitFor();
    expect(new URL(page.url()).pathname).toBe('/login');
    expect(await page.getByTestId('user-menu').count()).toBe(0);
    await context.close();
  });
});
