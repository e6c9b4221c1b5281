import { readFileSync } from 'node:fs';
import type { RedemptionPage } from '@switchyard/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  launchBrowser,
  loginAsRoot,
  motionsDone,
  newSession,
  screenshot,
  sessionUserId,
  toast,
  uniqueName,
} from '../support/browser';

/** An administrator creates codes, downloads them, and a user redeems one. */
describe('redemption codes', () => {
  const name = uniqueName('code');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let codes: string[] = [];

  const rows = () => page.getByRole('row').filter({ hasText: name });

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newSession(browser));
    await loginAsRoot(page);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('creates three codes and downloads them as a text file', async () => {
    await page.goto('/redemption');
    await page.getByRole('button', { name: '复制所选兑换码' }).click();
    await toast(page, '请至少选择一个兑换码！').waitFor();

    await page.getByRole('button', { name: '添加兑换码' }).click();
    const dialog = page.getByRole('dialog', { name: '创建新的兑换码' });
    await dialog.waitFor();
    await motionsDone(page);
    expect(await dialog.getByLabel('额度').inputValue()).toBe('100000');
    await dialog.getByLabel('名称').fill(name);
    await dialog.getByLabel('生成数量').fill('3');
    await screenshot(page, 'redemption-editor', { fullPage: false });
    await dialog.getByRole('button', { name: /^提\s?交$/ }).click();
    await toast(page, '兑换码创建成功！').waitFor();

    const offer = page.getByRole('dialog').filter({ hasText: '已生成 3 个兑换码，是否下载兑换码？' });
    await offer.waitFor();
    await motionsDone(page);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      offer.getByRole('button', { name: /^下\s?载$/ }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${name}.txt`);
    const text = readFileSync((await download.path()) as string, 'utf8');
    codes = text.trim().split('\n');
    expect(codes).toHaveLength(3);
    for (const code of codes) expect(code).toMatch(/^[0-9a-f]{32}$/);

    await page.getByPlaceholder('搜索兑换码的 ID 和名称').fill(name);
    await page.getByRole('button', { name: /^查\s?询$/ }).click();
    await expect.poll(() => rows().count()).toBe(3);
    const listed = await api<RedemptionPage>(
      context,
      'GET',
      `/api/redemption/search?keyword=${name}`,
      await sessionUserId(page),
    );
    expect(listed.data.items.map((item) => item.key).sort()).toEqual([...codes].sort());
  });

  it('a user redeems one code; the row becomes used and cannot be enabled or edited', async () => {
    const user = await newSession(browser);
    const username = uniqueName('rdm');
    const password = 'redeem-pass-1';
    await user.context.request.post('/api/user/register', { data: { username, password } });
    const loggedIn = await user.context.request.post('/api/user/login', { data: { username, password } });
    const userId = ((await loggedIn.json()) as { data: { id: number } }).data.id;
    const before = await api<{ quota: number }>(user.context, 'GET', '/api/user/self', userId);
    const redeemed = await api<number>(user.context, 'POST', '/api/user/topup', userId, { key: codes[0] });
    expect(redeemed).toMatchObject({ success: true, data: 100000 });
    const after = await api<{ quota: number }>(user.context, 'GET', '/api/user/self', userId);
    expect(after.data.quota).toBe(before.data.quota + 100000);
    const again = await api<number>(user.context, 'POST', '/api/user/topup', userId, { key: codes[0] });
    expect(again.success).toBe(false);
    await user.context.close();

    await page.getByRole('button', { name: /刷\s?新/ }).click();
    const used = page.getByRole('row').filter({ hasText: '已使用' }).filter({ hasText: name });
    await used.waitFor();
    expect(await used.textContent()).toContain(String(userId));
    expect(await used.getByRole('button', { name: /^启\s?用$/ }).isDisabled()).toBe(true);
    expect(await used.getByRole('button', { name: /^编\s?辑$/ }).isDisabled()).toBe(true);
    await screenshot(page, 'redemption-list');
  });

  it('disables an unused code, which then cannot be redeemed', async () => {
    const unused = rows().filter({ hasText: '未使用' }).first();
    await unused.getByRole('button', { name: /^禁\s?用$/ }).click();
    await toast(page, '操作成功完成！').waitFor();
    await expect.poll(() => rows().filter({ hasText: '已禁用' }).count()).toBe(1);
  });
});
