import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  launchBrowser,
  loginAsRoot,
  newSession,
  screenshot,
  sessionUserId,
  toast,
} from '../support/browser';

/** The save button (its accessible name gains a 'loading' prefix while saving). */
const SAVE = /保\s?存$/;

/** The options these tests change; their original values are put back afterwards. */
const TOUCHED = [
  'RetryTimes',
  'ModelRequestRateLimitSuccessCount',
  'claude.default_max_tokens',
  'ServerAddress',
  'SystemName',
  'HomePageContent',
] as const;

/** The super administrator edits an option on every settings tab. */
describe('site settings', () => {
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let rootId = 0;
  const original = new Map<string, string>();

  const readOptions = async (): Promise<Map<string, string>> => {
    const reply = await api<Array<{ key: string; value: string }>>(context, 'GET', '/api/option/', rootId);
    return new Map(reply.data.map((option) => [option.key, option.value]));
  };
  const openTab = async (key: string, label: string) => {
    await page.goto(`/setting?tab=${key}`);
    await page.getByRole('tab', { name: label, exact: true, selected: true }).waitFor();
  };

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newSession(browser));
    await loginAsRoot(page);
    rootId = await sessionUserId(page);
    const options = await readOptions();
    for (const key of TOUCHED) original.set(key, options.get(key) ?? '');
  });

  afterAll(async () => {
    if (context) {
      for (const [key, value] of original) await api(context, 'PUT', '/api/option/', rootId, { key, value });
      await context.close();
    }
    await browser?.close();
  });

  it('offers the personal tab and every administration tab to the super administrator', async () => {
    await page.goto('/setting');
    await page.getByRole('tab', { name: '个人设置' }).waitFor();
    const tabs = await page.getByRole('tab').allTextContents();
    expect(tabs).toEqual(['个人设置', '运营设置', '速率限制设置', '模型相关设置', '系统设置', '其他设置']);
  });

  it('operation: saves only changed options and says when nothing changed', async () => {
    await openTab('operation', '运营设置');
    const general = page.getByTestId('settings-section-general');
    await general.getByLabel('失败重试次数').fill('5');
    await general.getByRole('button', { name: SAVE }).click();
    await toast(page, '保存成功').waitFor();
    expect((await readOptions()).get('RetryTimes')).toBe('5');
    await general.locator('.ant-btn-loading').waitFor({ state: 'detached' });

    await general.getByRole('button', { name: SAVE }).click();
    await toast(page, '你似乎并没有修改什么').waitFor();
    await screenshot(page, 'settings-operation');
  });

  it('ratelimit: enforces the minimum and saves the success count', async () => {
    await openTab('ratelimit', '速率限制设置');
    const section = page.getByTestId('settings-section-ratelimit');
    const successCount = section.getByLabel('用户每周期最多请求完成次数');
    await successCount.fill('0');
    await section.getByRole('button', { name: SAVE }).click();
    await toast(page, '请检查输入').waitFor();
    await successCount.fill('500');
    await section.getByRole('button', { name: SAVE }).click();
    await toast(page, '保存成功').waitFor();
    expect((await readOptions()).get('ModelRequestRateLimitSuccessCount')).toBe('500');
    await screenshot(page, 'settings-ratelimit');
  });

  it('models: refuses invalid JSON and saves the Claude default max tokens', async () => {
    await openTab('models', '模型相关设置');
    const claude = page.getByTestId('settings-section-claude');
    const maxTokens = claude.getByLabel('缺省 MaxTokens');
    await maxTokens.fill('{"default": ');
    await claude.getByRole('button', { name: SAVE }).click();
    await claude.getByText('不是合法的 JSON 字符串').waitFor();
    await maxTokens.fill('{"default": 4096}');
    await claude.getByRole('button', { name: SAVE }).click();
    await toast(page, '保存成功').waitFor();
    expect(JSON.parse((await readOptions()).get('claude.default_max_tokens') ?? '')).toEqual({
      default: 4096,
    });
    await screenshot(page, 'settings-models');
  });

  it('system: saves the server address without its trailing slash', async () => {
    await openTab('system', '系统设置');
    const addresses = page.getByTestId('settings-section-addresses');
    await addresses.getByLabel('服务器地址', { exact: true }).fill('https://gateway.example.com/');
    await addresses.getByRole('button', { name: SAVE }).click();
    await toast(page, '保存成功').waitFor();
    expect((await readOptions()).get('ServerAddress')).toBe('https://gateway.example.com');
    await screenshot(page, 'settings-system');
  });

  it('other: sets the system name and the home page content, each with its own message', async () => {
    await openTab('other', '其他设置');
    const systemName = page.getByTestId('settings-section-other-systemName');
    await systemName.getByLabel('系统名称').fill('E2E Gateway');
    await systemName.getByRole('button', { name: '设置系统名称' }).click();
    await toast(page, '系统名称已更新').waitFor();

    const home = page.getByTestId('settings-section-other-homePageContent');
    await home.getByLabel('首页内容').fill('# Set from the settings tab');
    await home.getByRole('button', { name: '设置首页内容' }).click();
    await toast(page, '首页内容已更新').waitFor();
    await screenshot(page, 'settings-other');

    await page.goto('/');
    await page.getByRole('heading', { name: 'Set from the settings tab' }).waitFor();
    await page.getByRole('banner').getByText('E2E Gateway').waitFor();
    expect(await page.title()).toBe('E2E Gateway');
  });
});
