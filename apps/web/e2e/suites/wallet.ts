import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  api,
  launchBrowser,
  login,
  loginAsRoot,
  motionsDone,
  newSession,
  OK_BUTTON,
  screenshot,
  sessionUserId,
  toast,
  uniqueName,
} from '../support/browser';

/** A user redeems a code an administrator created, then starts an online top-up. */
describe('wallet', () => {
  const username = uniqueName('wal');
  const password = 'wallet-pass-1';
  let browser: Browser;
  let admin: { context: BrowserContext; page: Page };
  let rootId = 0;
  let context: BrowserContext;
  let page: Page;
  let code = '';

  const redeemButton = () => page.locator('button', { hasText: /^兑\s?换$/ });
  const setOption = async (key: string, value: string) => {
    const reply = await api(admin.context, 'PUT', '/api/option/', rootId, { key, value });
    expect(reply.success, `${key}: ${reply.message}`).toBe(true);
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    admin = await newSession(browser);
    await loginAsRoot(admin.page);
    rootId = await sessionUserId(admin.page);
    const created = await api<string[]>(admin.context, 'POST', '/api/redemption/', rootId, {
      name: 'e2e-wallet',
      quota: 1_000_000,
      count: 1,
    });
    expect(created.success, created.message).toBe(true);
    code = created.data[0] ?? '';
    expect(code).not.toBe('');
    const user = await api(admin.context, 'POST', '/api/user/', rootId, { username, password });
    expect(user.success, user.message).toBe(true);

    ({ context, page } = await newSession(browser));
    await login(page, username, password);
  });
  afterAll(async () => {
    if (rootId) {
      for (const key of ['PayAddress', 'EpayId', 'EpayKey']) await setOption(key, '').catch(() => undefined);
      await setOption('MinTopUp', '1').catch(() => undefined);
    }
    await admin?.context.close();
    await context?.close();
    await browser?.close();
  });

  it('redeems a code once', async () => {
    await page.goto('/topup');
    await page.getByText('$0.00', { exact: true }).first().waitFor();
    await redeemButton().click();
    await toast(page, '请输入兑换码！').waitFor();

    await page.getByLabel('兑换码').fill(code);
    await redeemButton().click();
    await toast(page, '兑换成功！').waitFor();
    await page.getByText('成功兑换额度：$2.00').waitFor();
    await page.getByText('$2.00', { exact: true }).first().waitFor();
    const self = await api<{ quota: number }>(context, 'GET', '/api/user/self', await sessionUserId(page));
    expect(self.data.quota).toBe(1_000_000);
    await screenshot(page, 'wallet');

    await page.getByLabel('兑换码').fill(code);
    await redeemButton().click();
    await page.locator('.ant-message-error').first().waitFor();
    const again = await api<{ quota: number }>(context, 'GET', '/api/user/self', await sessionUserId(page));
    expect(again.data.quota).toBe(1_000_000);
  });

  it('confirms an online top-up and posts the payment form', async () => {
    await setOption('ServerAddress', inject('baseUrl'));
    await setOption('PayAddress', inject('mockUrl'));
    await setOption('EpayId', '1001');
    await setOption('EpayKey', 'e2e-epay-key');
    await setOption('MinTopUp', '2');
    await page.goto('/topup');
    const amount = page.getByLabel('充值数量');
    await amount.fill('1');
    await page.getByText('充值数量不能小于2').first().waitFor();
    await amount.fill('3');
    await page.getByText('实付金额：21.90 元').waitFor();

    await page.getByRole('button', { name: /支付宝/ }).click();
    const dialog = page.getByRole('dialog', { name: '充值确认' });
    await dialog.getByText('21.90 元').waitFor();
    await dialog.getByText('$3').waitFor();
    await motionsDone(page);
    await screenshot(page, 'wallet-top-up-confirm', { fullPage: false });

    const submitted = context.waitForEvent('request', (request: Request) =>
      request.url().endsWith('/submit.php'),
    );
    await dialog.getByRole('button', { name: OK_BUTTON }).click();
    const request = await submitted;
    expect(request.method()).toBe('POST');
    expect(request.url()).toBe(`${inject('mockUrl')}/submit.php`);
    const form = new URLSearchParams(request.postData() ?? '');
    expect(form.get('money')).toBe('21.90');
    expect(form.get('type')).toBe('alipay');
    expect(form.get('pid')).toBe('1001');
    expect(form.get('sign')).toMatch(/^[0-9a-f]{32}$/);
  });
});
