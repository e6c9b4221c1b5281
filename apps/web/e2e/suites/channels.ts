import type { ChannelView } from '@switchyard/shared';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  api,
  closeDialog,
  launchBrowser,
  loginAsRoot,
  motionsDone,
  newSession,
  screenshot,
  sessionUserId,
  toast,
  uniqueName,
} from '../support/browser';

/** An administrator adds a channel pointing at the mock upstream, tests it, edits and tags it. */
describe('channel management', () => {
  const name = uniqueName('chan');
  const tag = uniqueName('tag');
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let channelId = 0;

  const row = () => page.getByRole('row').filter({ hasText: name });
  const fetchChannel = async () =>
    (await api<ChannelView>(context, 'GET', `/api/channel/${channelId}`, await sessionUserId(page))).data;

  beforeAll(async () => {
    browser = await launchBrowser();
    ({ context, page } = await newSession(browser));
    await loginAsRoot(page);
  });
  afterAll(async () => {
    await context?.close();
    await browser?.close();
  });

  it('adds a channel with the editor (required fields, model helpers, defaults)', async () => {
    await page.goto('/channel');
    await page.getByRole('button', { name: '添加渠道' }).click();
    await page.waitForURL('**/channel/add');
    await page.getByLabel('名称', { exact: true }).waitFor();

    await page.getByRole('button', { name: /^提\s?交$/ }).click();
    await toast(page, '请填写渠道名称和渠道密钥！').waitFor();

    await page.getByLabel('名称', { exact: true }).fill(name);
    await page.getByLabel('代理').fill(`${inject('mockUrl')}/`);
    await page.getByLabel('密钥', { exact: true }).fill('sk-e2e-channel');
    await page.getByRole('button', { name: /^提\s?交$/ }).click();
    await toast(page, '请至少选择一个模型！').waitFor();

    const custom = page.getByLabel('输入自定义模型名称，多个以逗号分隔');
    await custom.fill('gpt-4o-mini, e2e-model');
    await page.getByRole('button', { name: /^填\s?入$/ }).click();
    await custom.fill('gpt-4o-mini');
    await page.getByRole('button', { name: /^填\s?入$/ }).click();
    await toast(page, '某些模型已存在！').waitFor();

    await page.getByLabel('模型重定向').fill('{not json');
    await page.getByRole('button', { name: /^提\s?交$/ }).click();
    await toast(page, '模型映射必须是合法的 JSON 格式！').waitFor();
    await page.getByLabel('模型重定向').fill('');
    await screenshot(page, 'channel-editor-new');

    await page.getByRole('button', { name: /^提\s?交$/ }).click();
    await toast(page, '渠道创建成功！').waitFor();
    await page.waitForURL('**/channel');
    await row().waitFor();
    channelId = Number(await row().locator('td').first().textContent());
    const created = await fetchChannel();
    expect(created).toMatchObject({
      name,
      type: 1,
      models: 'gpt-4o-mini,e2e-model',
      group: 'default',
      priority: 0,
      weight: 0,
      auto_ban: 1,
      status: 1,
      base_url: inject('mockUrl'),
    });
  });

  it('tests the channel against the mock upstream', async () => {
    expect(await row().textContent()).toContain('未测试');
    await row()
      .getByRole('button', { name: /^测\s?试$/ })
      .click();
    await toast(page, new RegExp(`渠道 ${name} 测试成功，耗时 [\\d.]+ 秒。`)).waitFor();
    await row()
      .getByText(/^[\d.]+ 秒$/)
      .waitFor();
    expect((await fetchChannel()).response_time).toBeGreaterThan(0);

    // Test with a chosen model.
    await row().getByRole('button', { name: '选择模型测试' }).click();
    await page.getByRole('menuitem', { name: 'e2e-model' }).click();
    await toast(page, new RegExp(`渠道 ${name} 测试成功`)).waitFor();
    await screenshot(page, 'channel-list');
  });

  it('edits priority inline and toggles the status', async () => {
    const priority = row().getByLabel('优先级');
    await priority.fill('5');
    await priority.press('Enter');
    await toast(page, '保存成功').waitFor();
    expect((await fetchChannel()).priority).toBe(5);

    await row()
      .getByRole('button', { name: /^禁\s?用$/ })
      .click();
    await row().getByText('已禁用').waitFor();
    expect((await fetchChannel()).status).toBe(2);
    await row()
      .getByRole('button', { name: /^启\s?用$/ })
      .click();
    await row().getByText('已启用').waitFor();
    expect((await fetchChannel()).status).toBe(1);
  });

  it('edits the channel in the editor', async () => {
    await row()
      .getByRole('link', { name: /^编\s?辑$/ })
      .click();
    await page.waitForURL(`**/channel/edit/${channelId}`);
    const nameInput = page.getByLabel('名称', { exact: true });
    await nameInput.waitFor();
    expect(await nameInput.inputValue()).toBe(name);
    await page.getByLabel('渠道标签').waitFor();
    await screenshot(page, 'channel-editor');
    await page.getByLabel('渠道权重').fill('7');
    await page.getByRole('button', { name: /^提\s?交$/ }).click();
    await toast(page, '渠道更新成功！').waitFor();
    await page.waitForURL('**/channel');
    expect((await fetchChannel()).weight).toBe(7);
  });

  it('sets a tag in batch mode and shows the tag row in tag mode', async () => {
    await page.getByRole('button', { name: '批量设置标签' }).click();
    await toast(page, '请先选择要设置标签的渠道！').waitFor();

    await page.getByRole('switch', { name: '开启批量操作' }).click();
    await row().getByRole('checkbox').check();
    await page.getByRole('button', { name: '批量设置标签' }).click();
    const dialog = page.getByRole('dialog', { name: '批量设置标签' });
    await dialog.waitFor();
    await motionsDone(page);
    await dialog.getByLabel('标签').fill(tag);
    await closeDialog(dialog);
    await toast(page, '已为 1 个渠道设置标签！').waitFor();
    expect((await fetchChannel()).tag).toBe(tag);

    await page.getByRole('switch', { name: '开启标签聚合' }).click();
    const tagRow = page.getByRole('row').filter({ hasText: `标签：${tag}` });
    await tagRow.waitFor();
    expect(await page.evaluate(() => localStorage.getItem('tag-mode'))).toBe('true');
    await screenshot(page, 'channel-list-tag-mode');

    await tagRow.getByRole('button', { name: '编辑标签' }).click();
    const editor = page.getByRole('dialog', { name: `编辑标签：${tag}` });
    await editor.waitFor();
    // A click during the opening animation can be lost: click OK until the answer shows.
    const submitUntil = async (answer: string) => {
      for (let attempt = 1; ; attempt += 1) {
        await editor.getByRole('button', { name: /^(确\s?定|OK)$/ }).click();
        try {
          await toast(page, answer).waitFor({ timeout: 3_000 });
          return;
        } catch (error) {
          if (attempt >= 4) throw error;
        }
      }
    };
    await editor.getByLabel('优先级').fill('x');
    await submitUntil('优先级必须是整数！');
    await editor.getByLabel('优先级').fill('9');
    await submitUntil('标签更新成功！');
    await editor.waitFor({ state: 'hidden' });
    expect((await fetchChannel()).priority).toBe(9);

    await page.getByRole('switch', { name: '开启标签聚合' }).click();
    await row().waitFor();
  });
});
