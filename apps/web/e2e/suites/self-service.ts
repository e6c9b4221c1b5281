import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  launchBrowser,
  login,
  motionsDone,
  newSession,
  OK_BUTTON,
  screenshot,
  sessionUserId,
  toast,
  uniqueName,
} from '../support/browser';

interface SelfUser {
  username: string;
  setting: string;
}

/**
 * One ordinary user's life: register, log in, change language and theme, change the password,
 * set up low-quota notifications, delete the account.
 */
describe('a user looks after their own account', () => {
  const username = uniqueName('e2e');
  let password = 'first-pass-123';
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newSession(browser));
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('registers and logs in', async () => {
    await page.goto('/register');
    await page.getByLabel('用户名', { exact: true }).fill(username);
    await page.getByLabel('密码', { exact: true }).fill(password);
    await page.getByLabel('确认密码').fill(`${password}-typo`);
    await page.getByRole('button', { name: /^注\s?册$/ }).click();
    await page.getByText('两次输入的密码不一致').waitFor();

    await page.getByLabel('确认密码').fill(password);
    await page.getByRole('button', { name: /^注\s?册$/ }).click();
    await toast(page, '注册成功！').waitFor();
    await page.waitForURL('**/login');

    await login(page, username, password);
    await page.goto('/setting?tab=personal');
    await page.getByText('当前余额').waitFor();
    expect(await page.getByTestId('user-menu').textContent()).toContain(username);
    await screenshot(page, 'personal-settings');
  });

  it('switches to English and the dark theme, and both are remembered', async () => {
    await page.getByRole('button', { name: '切换语言' }).hover();
    await page.getByRole('menuitem', { name: 'English' }).waitFor();
    await motionsDone(page);
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.getByText('Balance', { exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en');

    await page.getByRole('button', { name: 'Toggle theme' }).click();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');

    await page.reload();
    await page.getByText('Balance', { exact: true }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await page.evaluate(() => localStorage.getItem('i18nextLng'))).toBe('en');
    await screenshot(page, 'personal-settings-en-dark');
  });

  it('changes the password and logs in with the new one', async () => {
    await page.getByRole('button', { name: 'Change password' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change password' });
    await dialog.waitFor();
    await motionsDone(page);
    await dialog.getByLabel('New password', { exact: true }).fill('second-pass-456');
    await dialog.getByLabel('Confirm new password').fill('second-pass-789');
    await dialog.getByRole('button', { name: OK_BUTTON }).click();
    await dialog.getByText('The two passwords do not match!').waitFor();
    await dialog.getByLabel('Confirm new password').fill('second-pass-456');
    await dialog.getByRole('button', { name: OK_BUTTON }).click();
    await toast(page, 'Password changed successfully!').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    password = 'second-pass-456';
    await motionsDone(page);

    await page.getByTestId('user-menu').hover();
    await page.getByRole('menuitem', { name: 'Log out' }).waitFor();
    await motionsDone(page);
    await page.getByRole('menuitem', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    await login(page, username, password);
  });

  it('saves webhook notifications (https only)', async () => {
    await page.goto('/setting?tab=personal');
    const card = page.locator('.ant-card').filter({ hasText: 'Notifications' });
    await card.getByRole('radio', { name: 'Webhook' }).check();
    await card.getByLabel('Webhook URL').fill('http://hooks.example.com/quota');
    await card.getByRole('button', { name: 'Save settings' }).click();
    await card.getByText('The webhook URL must start with https://').waitFor();

    await card.getByLabel('Webhook URL').fill('https://hooks.example.com/quota');
    await card.getByLabel('Webhook secret').fill('e2e-secret');
    await card.getByRole('button', { name: 'Save settings' }).click();
    await toast(page, 'Saved successfully').waitFor();

    const self = await api<SelfUser>(context, 'GET', '/api/user/self', await sessionUserId(page));
    expect(JSON.parse(self.data.setting)).toMatchObject({
      notify_type: 'webhook',
      webhook_url: 'https://hooks.example.com/quota',
      webhook_secret: 'e2e-secret',
    });

    await page.reload();
    const reloaded = page.locator('.ant-card').filter({ hasText: 'Notifications' });
    await reloaded.getByLabel('Webhook URL').waitFor();
    expect(await reloaded.getByRole('radio', { name: 'Webhook' }).isChecked()).toBe(true);
    expect(await reloaded.getByLabel('Webhook URL').inputValue()).toBe('https://hooks.example.com/quota');
  });

  it('deletes the account after typing the username', async () => {
    await page.getByRole('button', { name: 'Delete account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete account' });
    await dialog.waitFor();
    await motionsDone(page);
    const confirm = dialog.getByRole('button', { name: 'Delete' });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Type your username to confirm').fill(`${username}x`);
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel('Type your username to confirm').fill(username);
    await confirm.click();
    await toast(page, 'Account deleted!').waitFor();
    await page.waitForURL('**/login');
    expect(await page.evaluate(() => localStorage.getItem('user'))).toBeNull();

    await page.getByLabel('Username or e-mail').fill(username);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.locator('.ant-message-error').first().waitFor();
    expect(await page.getByTestId('user-menu').count()).toBe(0);
  });
});
