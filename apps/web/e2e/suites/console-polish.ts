import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  api,
  launchBrowser,
  login,
  loginAsRoot,
  motionsDone,
  newSession,
  screenshot,
  sessionUserId,
  toast,
} from '../support/browser';
import { expectReachable, LANGUAGE_CASES, type Language, newLaptopSession } from '../support/laptop';
import { SCREENSHOT_DIR } from '../support/paths';

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/** Per-call model priced at $0.0004: one call uses 200 quota units. */
const TINY_MODEL = 'e2e-tiny-price';
const PASSWORD = 'polish-password';

/** The texts each language shows (a test per language must find its own words). */
const TEXT = {
  zh: {
    used: '历史消耗',
    logQuota: '消耗额度：$0.0004',
    viewing: '当前查看的分组为：vip，分组倍率为：1（您的分组为：default）',
    ownVip: '您的分组为：vip',
    addCodes: '添加兑换码',
    createCodes: '创建新的兑换码',
    count: '生成数量',
    countInvalid: '生成数量必须是 1 到 100 之间的整数，一次最多生成 100 个',
    submit: /^提\s?交$/,
    addToken: '添加令牌',
    createToken: '创建新的令牌',
    editToken: '更新令牌信息',
    edit: /^编\s?辑$/,
    groupPlaceholder: '令牌分组，默认为用户的分组',
    threshold: '额度预警阈值',
    save: /^保\s?存/,
  },
  en: {
    used: 'Used quota',
    logQuota: 'Quota used: $0.0004',
    viewing: 'Viewing group vip, group ratio 1 (your group is default)',
    ownVip: 'Your group is vip',
    addCodes: 'Add codes',
    createCodes: 'Create redemption codes',
    count: 'Number to generate',
    countInvalid: 'The number must be an integer from 1 to 100: at most 100 codes per batch',
    submit: /^Submit$/,
    addToken: 'Add token',
    createToken: 'Create a token',
    editToken: 'Update the token',
    edit: /^Edit$/,
    groupPlaceholder: "Token group; defaults to the user's group",
    threshold: 'Low-quota warning threshold',
    save: /^Save/,
  },
} satisfies Record<Language, Record<string, string | RegExp>>;

/**
 * The console's rough edges at laptop widths, in each language (LANGUAGE_CASES): money with the
 * precision it needs, the pricing banner, the redemption batch limit, scroll after a save, the
 * token group placeholder and the low-quota threshold presets.
 */
describe('console polish at laptop widths', () => {
  let browser: Browser;
  let rootState: StorageState;
  let userState: StorageState;
  let rootId = 0;
  let channelId = 0;
  const username = `polish${Math.random().toString(36).slice(2, 6)}`;
  const debtor = `debt${Math.random().toString(36).slice(2, 6)}`;

  beforeAll(async () => {
    browser = await launchBrowser();
    const root = await newSession(browser);
    await loginAsRoot(root.page);
    rootId = await sessionUserId(root.page);
    const call = async <T>(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown) => {
      const reply = await api<T>(root.context, method, path, rootId, body);
      expect(reply.success, `${path}: ${reply.message}`).toBe(true);
      return reply.data;
    };
    const options = await call<{ key: string; value: string }[]>('GET', '/api/option/');
    const prices = JSON.parse(options.find((option) => option.key === 'ModelPrice')?.value || '{}');
    await call('PUT', '/api/option/', {
      key: 'ModelPrice',
      value: JSON.stringify({ ...prices, [TINY_MODEL]: 0.0004 }),
    });
    await call('POST', '/api/channel/', {
      type: 1,
      name: 'polish-tiny',
      key: 'sk-mock-polish',
      base_url: inject('mockUrl'),
      models: TINY_MODEL,
      group: 'default',
    });
    // Enough channels that the list is taller than the window (the scroll test needs it).
    for (let index = 0; index < 14; index += 1) {
      await call('POST', '/api/channel/', {
        type: 1,
        name: `polish-scroll-${index}`,
        key: 'sk-mock-polish',
        base_url: inject('mockUrl'),
        models: 'gpt-4o-mini',
        group: 'default',
      });
    }
    const channels = await call<{ id: number; name: string }[]>(
      'GET',
      '/api/channel/search?keyword=polish-scroll-0',
    );
    channelId = channels.find((channel) => channel.name === 'polish-scroll-0')?.id ?? 0;
    expect(channelId).toBeGreaterThan(0);
    for (const [name, quota] of [
      [username, 1_000_000],
      [debtor, -1_000],
    ] as const) {
      await call('POST', '/api/user/', { username: name, password: PASSWORD, display_name: name });
      const found = await call<{ items: { id: number }[] }>('GET', `/api/user/search?keyword=${name}`);
      await call('PUT', '/api/user/', { id: found.items[0]?.id, quota });
    }
    rootState = await root.context.storageState();
    await root.context.close();

    const user = await newSession(browser);
    await login(user.page, username, PASSWORD);
    const userId = await sessionUserId(user.page);
    const created = await api<{ key: string }[]>(user.context, 'POST', '/api/token/', userId, {
      name: 'polish-token',
      remain_quota: 0,
      expired_time: -1,
      unlimited_quota: true,
    });
    expect(created.success, created.message).toBe(true);
    const chat = await user.context.request.post('/v1/chat/completions', {
      headers: { Authorization: `Bearer ${created.data[0]?.key}` },
      data: { model: TINY_MODEL, messages: [{ role: 'user', content: 'one tiny call' }] },
    });
    expect(chat.status(), await chat.text()).toBe(200);
    userState = await user.context.storageState();
    await user.context.close();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** Opens `path` until `text` shows (settlements and counters are written in batches). */
  const openUntil = async (page: Page, path: string, text: string) => {
    const target = page.getByText(text, { exact: true }).first();
    await page.goto(path);
    for (let attempt = 1; ; attempt += 1) {
      try {
        await target.waitFor({ timeout: 3_000 });
        return;
      } catch (error) {
        if (attempt >= 5) throw error;
        await page.reload();
      }
    }
  };

  for (const { viewport, language, theme, label } of LANGUAGE_CASES) {
    const text = TEXT[language];
    const session = (state: StorageState) =>
      newLaptopSession(browser, { viewport, language, theme, storageState: state });

    it(`shows small and negative amounts with their precision at ${label}`, async () => {
      const { context, page } = await session(userState);
      try {
        await openUntil(page, '/topup', '$0.0004');
        await page.getByText(text.used).waitFor();
        await page.getByText('$1.9996', { exact: true }).waitFor();
        await screenshot(page, `money-wallet-${label}`, { fullPage: false });
        await openUntil(page, '/token', '$0.0004');
        await screenshot(page, `money-tokens-${label}`, { fullPage: false });
        await page.goto('/log');
        await page.getByText(text.logQuota).waitFor();
        await screenshot(page, `money-logs-${label}`, { fullPage: false });
      } finally {
        await context.close();
      }
      const admin = await session(rootState);
      try {
        await admin.page.goto('/user');
        const row = admin.page.getByRole('row').filter({ hasText: debtor });
        await row.getByText('-$0.002', { exact: true }).waitFor();
        expect(await row.getByText('$-0').count()).toBe(0);
        await screenshot(admin.page, `money-users-${label}`, { fullPage: false });
      } finally {
        await admin.context.close();
      }
    });

    it(`says which group the pricing page shows at ${label}`, async () => {
      const { context, page } = await session(userState);
      try {
        await page.goto('/pricing');
        await page.locator('.ant-tag-checkable').filter({ hasText: /^vip/ }).first().click();
        await page.getByText(text.viewing).waitFor();
        expect(await page.getByText(text.ownVip).count()).toBe(0);
        await screenshot(page, `pricing-viewing-${label}`, { fullPage: false });
      } finally {
        await context.close();
      }
    });

    it(`refuses more than 100 redemption codes at ${label}`, async () => {
      const { context, page } = await session(rootState);
      try {
        await page.goto('/redemption');
        await page.getByRole('button', { name: text.addCodes }).click();
        const dialog = page.getByRole('dialog', { name: text.createCodes });
        await dialog.getByLabel(text.count).fill('101');
        let posted = false;
        page.on('request', (request: Request) => {
          if (request.method() === 'POST' && request.url().includes('/api/redemption')) posted = true;
        });
        await dialog.getByRole('button', { name: text.submit }).click();
        await dialog.getByText(text.countInvalid).waitFor();
        expect(await dialog.getByLabel(text.count).inputValue()).toBe('101');
        await screenshot(page, `redemption-limit-${label}`, { fullPage: false });
        expect(posted, 'the form must not send a refused batch').toBe(false);
      } finally {
        await context.close();
      }
      if (label === LANGUAGE_CASES[0]?.label) {
        const admin = await session(rootState);
        const refused = await api(admin.context, 'POST', '/api/redemption/', rootId, {
          name: 'too-many',
          quota: 1,
          count: 101,
        });
        await admin.context.close();
        expect(refused).toMatchObject({ success: false, message: '一次兑换码批量生成的个数不能大于 100' });
      }
    });

    it(`opens the next page at its top after a save at ${label}`, async () => {
      const { context, page } = await session(rootState);
      try {
        await page.goto('/channel');
        await page.evaluate(() => localStorage.setItem('page-size', '20'));
        await page.goto(`/channel/edit/${channelId}`);
        const submit = page.getByRole('button', { name: text.submit });
        await submit.waitFor();
        // A scroll made as soon as the channel's fields were filled was sometimes undone (the
        // window back at the top) while the page's other requests ran: scroll once it is quiet.
        await page.waitForFunction(() =>
          Array.from(document.querySelectorAll('input')).some((input) => input.value === 'polish-scroll-0'),
        );
        await page.waitForLoadState('networkidle');
        await page.waitForFunction(() => {
          window.scrollTo(0, document.documentElement.scrollHeight);
          return window.scrollY > 0;
        });
        expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
        await submit.click();
        await page.waitForURL('**/channel');
        await page.getByRole('row').filter({ hasText: 'polish-scroll-13' }).waitFor();
        const { scrollY, tall } = await page.evaluate(() => ({
          scrollY: window.scrollY,
          tall: document.documentElement.scrollHeight > window.innerHeight,
        }));
        expect(tall, 'the list must be taller than the window for this test to mean anything').toBe(true);
        expect(scrollY).toBe(0);
      } finally {
        await context.close();
      }
    });

    it(`shows the token group placeholder at ${label}`, async () => {
      const { context, page } = await session(userState);
      try {
        await page.goto('/token');
        await page.getByRole('button', { name: text.addToken }).click();
        const drawer = page.getByRole('dialog', { name: text.createToken });
        await drawer.getByText(text.groupPlaceholder).waitFor();
        await drawer.getByText(text.groupPlaceholder).scrollIntoViewIfNeeded();
        await motionsDone(page);
        await page.screenshot({ path: `${SCREENSHOT_DIR}/token-group-placeholder-${label}.png` });
        await page.keyboard.press('Escape');
        await drawer.waitFor({ state: 'hidden' });
        const row = page.getByRole('row').filter({ hasText: 'polish-token' });
        await row.getByRole('button', { name: text.edit }).click();
        await page.getByRole('dialog', { name: text.editToken }).getByText(text.groupPlaceholder).waitFor();
      } finally {
        await context.close();
      }
    });

    it(`offers the low-quota threshold presets at ${label}`, async () => {
      const { context, page } = await session(userState);
      try {
        await page.goto('/setting');
        const field = page.getByLabel(text.threshold);
        await field.waitFor();
        for (const preset of ['100000 ($0.20)', '500000 ($1.00)', '1000000 ($2.00)', '5000000 ($10.00)']) {
          await expectReachable(page.getByRole('button', { name: preset }), `preset ${preset}`);
        }
        await page.getByRole('button', { name: '1000000 ($2.00)' }).click();
        expect(await field.inputValue()).toBe('1000000');
        await field.fill('123456');
        const saved = page.waitForRequest(
          (request: Request) => request.method() === 'PUT' && request.url().endsWith('/api/user/setting'),
        );
        await page.getByRole('button', { name: text.save }).click();
        expect((await saved).postDataJSON()).toMatchObject({ quota_warning_threshold: 123456 });
        await toast(page, /^(保存成功|Saved successfully)$/).waitFor();
        await page.getByRole('button', { name: '5000000 ($10.00)' }).scrollIntoViewIfNeeded();
        await page.screenshot({ path: `${SCREENSHOT_DIR}/threshold-presets-${label}.png` });
      } finally {
        await context.close();
      }
    });
  }
});
