import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, launchBrowser, loginAsRoot, newSession, screenshot, sessionUserId } from '../support/browser';
import { expectNoPageScroll, expectReachable, LAPTOP_CASES, newLaptopSession } from '../support/laptop';

const MODEL = 'e2e-layout-model-with-a-long-name';
const CHANNEL = 'layout-channel-with-a-rather-long-name';

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/** A list page and the cells of its first row that must stay in sight. */
interface ListCase {
  name: string;
  path: string;
  /** The first data row, once loaded. */
  row: (page: Page) => Locator;
  /** What must be reachable in that row. */
  targets: (row: Locator) => Locator;
}

const firstRow = (text: string) => (page: Page) =>
  page.locator('.ant-table-tbody tr.ant-table-row').filter({ hasText: text }).first();
const buttons = (row: Locator) => row.locator('td').last().locator('button, a');

const LISTS: ListCase[] = [
  { name: 'channels', path: '/channel', row: firstRow(CHANNEL), targets: buttons },
  { name: 'tokens', path: '/token', row: firstRow('layout-token'), targets: buttons },
  { name: 'users', path: '/user', row: firstRow('layoutuser'), targets: buttons },
  { name: 'redemptions', path: '/redemption', row: firstRow('layout-code'), targets: buttons },
  {
    name: 'logs',
    path: '/log',
    row: firstRow(MODEL),
    targets: (row) => row.locator('td').last(),
  },
  {
    name: 'midjourney',
    path: '/midjourney',
    row: firstRow('layout fox'),
    targets: (row) => row.locator('td').last(),
  },
  { name: 'tasks', path: '/task', row: firstRow('suno'), targets: (row) => row.locator('td').last() },
];

/**
 * Every list keeps its row actions (or its last, detail column) in sight at laptop widths, in both
 * languages: the column is fixed on the right and the rest of the table scrolls under it.
 */
describe('list actions at laptop widths', () => {
  let browser: Browser;
  let state: StorageState;

  beforeAll(async () => {
    browser = await launchBrowser();
    const { context, page } = await newSession(browser);
    await loginAsRoot(page);
    const rootId = await sessionUserId(page);
    const call = async (method: 'POST' | 'PUT', path: string, body: unknown) => {
      const reply = await api<unknown>(context, method, path, rootId, body);
      expect(reply.success, `${path}: ${reply.message}`).toBe(true);
      return reply.data;
    };
    for (const key of ['DrawingEnabled', 'TaskEnabled'])
      await call('PUT', '/api/option/', { key, value: 'true' });
    const options = await api<{ key: string; value: string }[]>(context, 'GET', '/api/option/', rootId);
    const ratios = JSON.parse(options.data.find((option) => option.key === 'ModelRatio')?.value || '{}');
    await call('PUT', '/api/option/', {
      key: 'ModelRatio',
      value: JSON.stringify({ ...ratios, [MODEL]: 1 }),
    });
    await call('POST', '/api/channel/', {
      type: 1,
      name: CHANNEL,
      key: 'sk-mock-layout',
      base_url: inject('mockUrl'),
      models: `${MODEL},gpt-4o-mini`,
      group: 'default,vip,svip',
    });
    await call('POST', '/api/channel/', {
      type: 2,
      name: 'layout-mj',
      key: 'mj-secret',
      base_url: inject('mockUrl'),
      models: 'mj_imagine',
      group: 'default',
    });
    await call('POST', '/api/channel/', {
      type: 36,
      name: 'layout-suno',
      key: 'suno-key',
      base_url: `${inject('mockUrl')}/__mock/task-step-100`,
      models: 'suno_music',
      group: 'default',
    });
    await call('PUT', '/api/user/', { id: rootId, quota: 50_000_000 });
    await call('POST', '/api/user/', {
      username: 'layoutuser',
      password: 'layout-password',
      display_name: 'Layout',
    });
    await call('POST', '/api/redemption/', { name: 'layout-code', quota: 100_000, count: 1 });
    const token = (await call('POST', '/api/token/', {
      name: 'layout-token',
      remain_quota: 5_000_000,
      expired_time: -1,
      unlimited_quota: true,
    })) as { key?: string }[];
    const chat = await context.request.post('/pg/chat/completions', {
      headers: { 'New-Api-User': String(rootId) },
      data: {
        model: MODEL,
        messages: [{ role: 'user', content: 'a long enough log line for the layout test' }],
      },
    });
    expect(chat.status(), await chat.text()).toBe(200);
    const key = token[0]?.key;
    expect(key, 'the create reply carries the key').toMatch(/^sk-/);
    const relay = (path: string, data: unknown) =>
      context.request.post(path, { headers: { Authorization: `Bearer ${key}` }, data });
    const drawing = await relay('/mj/submit/imagine', { prompt: 'layout fox [[mock:task-step-100]]' });
    expect(drawing.status(), await drawing.text()).toBe(200);
    const music = await relay('/suno/submit/music', { prompt: 'a calm layout song', title: 'Calm' });
    expect(music.status(), await music.text()).toBe(200);
    state = await context.storageState();
    await context.close();
  });
  afterAll(async () => {
    await browser?.close();
  });

  for (const { viewport, language, theme, label } of LAPTOP_CASES) {
    it(`keeps every list's actions in sight at ${label}`, async () => {
      const { context, page } = await newLaptopSession(browser, {
        viewport,
        language,
        theme,
        storageState: state,
      });
      try {
        for (const list of LISTS) {
          await page.goto(list.path);
          const row = list.row(page);
          for (let attempt = 0; attempt < 10 && !(await row.isVisible()); attempt += 1) {
            await page.waitForTimeout(500);
            if (attempt % 3 === 2) await page.reload();
          }
          await row.waitFor();
          await screenshot(page, `list-actions-${list.name}-${label}`, { fullPage: false });
          const targets = await list.targets(row).all();
          expect(targets.length, `${list.name}: no actions found`).toBeGreaterThan(0);
          for (const [index, target] of targets.entries()) {
            await expectReachable(target, `${list.name} at ${label}, action ${index + 1}`);
          }
          await expectNoPageScroll(page, `${list.name} at ${label}`);
        }
      } finally {
        await context.close();
      }
    });
  }
});
