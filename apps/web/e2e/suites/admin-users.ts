import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  launchBrowser,
  login,
  loginAsRoot,
  MOBILE,
  motionsDone,
  newSession,
  OK_BUTTON,
  screenshot,
  sessionUserId,
  toast,
  uniqueName,
} from '../support/browser';

interface ManagedUser {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  quota: number;
}

/** An administrator creates a user, promotes it, disables it and edits it. */
describe('user management', () => {
  const username = uniqueName('mgd');
  const password = 'managed-pass-1';
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let userId = 0;

  const row = () => page.getByRole('row').filter({ hasText: username });
  const confirmPopover = async (question: string) => {
    const popover = page.getByRole('tooltip').filter({ hasText: question });
    await popover.waitFor();
    await motionsDone(page);
    await popover.getByRole('button', { name: OK_BUTTON }).click();
  };
  const fetchUser = async () =>
    (await api<ManagedUser>(context, 'GET', `/api/user/${userId}`, await sessionUserId(page))).data;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newSession(browser));
    await loginAsRoot(page);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('creates a user (username and password are required)', async () => {
    await page.goto('/user');
    await page.getByRole('row').filter({ hasText: 'root' }).first().waitFor();
    await screenshot(page, 'user-list');

    await page.getByRole('button', { name: '添加用户' }).click();
    const dialog = page.getByRole('dialog', { name: '添加用户' });
    await dialog.waitFor();
    await motionsDone(page);
    await dialog.getByRole('button', { name: OK_BUTTON }).click();
    await toast(page, '用户名和密码不能为空！').waitFor();

    await dialog.getByLabel('用户名').fill(username);
    await dialog.getByLabel('显示名称').fill('Managed User');
    await dialog.getByLabel('密码').fill(password);
    await dialog.getByRole('button', { name: OK_BUTTON }).click();
    await toast(page, '用户账户创建成功！').waitFor();
    await dialog.waitFor({ state: 'hidden' });
    await motionsDone(page);

    await page.getByPlaceholder('搜索用户的 ID、用户名、显示名称和邮箱地址').fill(username);
    await page.getByRole('button', { name: /^查\s?询$/ }).click();
    await row().waitFor();
    await page.getByRole('row').filter({ hasText: 'Root User' }).waitFor({ state: 'detached' });
    expect(await page.getByRole('row').count()).toBe(2); // header + the one match
    userId = Number(await row().locator('td').first().textContent());
    expect(userId).toBeGreaterThan(1);
    expect(await row().textContent()).toContain('普通用户');
  });

  it('promotes the user to administrator', async () => {
    await row()
      .getByRole('button', { name: /^提\s?升$/ })
      .click();
    await confirmPopover('确定要将此用户提升为管理员吗？');
    await toast(page, '操作成功完成！').waitFor();
    await row().getByText('管理员', { exact: true }).waitFor();
    expect((await fetchUser()).role).toBe(10);
  });

  it('disables the user, who can then no longer log in', async () => {
    await row()
      .getByRole('button', { name: /^禁\s?用$/ })
      .click();
    await row().getByText('已封禁').waitFor();
    await row()
      .getByRole('button', { name: /^启\s?用$/ })
      .waitFor();
    expect((await fetchUser()).status).toBe(2);

    const other = await newSession(browser);
    await other.page.goto('/login');
    await other.page.getByLabel('用户名或邮箱').fill(username);
    await other.page.getByLabel('密码').fill(password);
    await other.page.getByRole('button', { name: /^登\s?录$/ }).click();
    await other.page.locator('.ant-message-error').first().waitFor();
    expect(await other.page.getByTestId('user-menu').count()).toBe(0);
    await other.context.close();
  });

  it('edits the user: display name and added quota', async () => {
    const before = await fetchUser();
    await row()
      .getByRole('link', { name: /^编\s?辑$/ })
      .click();
    await page.waitForURL(`**/user/edit/${userId}`);
    const displayName = page.getByLabel('显示名称');
    await displayName.waitFor();
    expect(await page.getByLabel('用户名', { exact: true }).inputValue()).toBe(username);
    await displayName.fill('Edited By E2E');

    await page.getByRole('button', { name: '添加额度' }).click();
    const addQuota = page.getByRole('dialog', { name: '添加额度' });
    await addQuota.waitFor();
    await motionsDone(page);
    await addQuota.getByLabel('添加数量').fill('500000');
    await addQuota.getByRole('button', { name: OK_BUTTON }).click();
    await addQuota.waitFor({ state: 'hidden' });
    expect(await page.getByLabel('剩余额度').inputValue()).toBe(String(before.quota + 500000));
    await screenshot(page, 'user-editor');

    await page.getByRole('button', { name: /^提\s?交$/ }).click();
    await toast(page, '用户信息更新成功！').waitFor();
    await page.waitForURL('**/user');
    const after = await fetchUser();
    expect(after.display_name).toBe('Edited By E2E');
    expect(after.quota).toBe(before.quota + 500000);
  });

  it('enables the user again, who can then log in', async () => {
    await page.getByPlaceholder('搜索用户的 ID、用户名、显示名称和邮箱地址').fill(username);
    await page.getByRole('button', { name: /^查\s?询$/ }).click();
    await row()
      .getByRole('button', { name: /^启\s?用$/ })
      .click();
    await row().getByText('已激活').waitFor();

    const other = await newSession(browser);
    await login(other.page, username, password);
    await other.context.close();
  });

  it('shows the user list on a 600 px wide screen with the sidebar folded into a drawer', async () => {
    const mobile = await newSession(browser, MOBILE);
    await loginAsRoot(mobile.page);
    await mobile.page.goto('/user');
    await mobile.page.getByRole('row').filter({ hasText: 'root' }).first().waitFor();
    expect(await mobile.page.getByRole('complementary').count()).toBe(0);
    await screenshot(mobile.page, 'user-list-mobile');
    await mobile.page.getByRole('button', { name: '打开导航' }).click();
    await mobile.page.getByRole('dialog', { name: '导航' }).getByText('用户管理').waitFor();
    await mobile.context.close();
  });
});
