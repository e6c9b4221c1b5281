import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { baseUrl, openPages } from './browser';

/** The common laptop viewports the console must fit without hiding a row's actions. */
export const LAPTOPS = [
  { width: 1366, height: 768 },
  { width: 1440, height: 900 },
] as const;
export const LANGUAGES = ['zh', 'en'] as const;
export type Laptop = (typeof LAPTOPS)[number];
export type Language = (typeof LANGUAGES)[number];
export type Theme = 'light' | 'dark';

/**
 * Every laptop width with every language; the theme alternates so that each width and each
 * language is seen in light and in dark (screenshots are named `<name>-<label>`).
 */
export const LAPTOP_CASES = LAPTOPS.flatMap((viewport, widthIndex) =>
  LANGUAGES.map((language, languageIndex) => {
    const theme: Theme = (widthIndex + languageIndex) % 2 === 0 ? 'light' : 'dark';
    return { viewport, language, theme, label: `${viewport.width}-${language}-${theme}` };
  }),
);

/**
 * One case per language, together seeing both widths: the narrow laptop in English (the longest
 * texts in the least room) and the wide one in Chinese. For checks of what the console says and
 * does in each language; layouts that must fit every case (list-actions) take LAPTOP_CASES.
 */
export const LANGUAGE_CASES = LAPTOP_CASES.filter(
  ({ viewport, language }) => (viewport.width === LAPTOPS[0].width) === (language === 'en'),
);

type StorageState = Awaited<ReturnType<BrowserContext['storageState']>>;

/**
 * A context at `viewport` with the console in `language` and `theme`, optionally reusing a logged-in
 * session (`storageState` of another context). The language and theme are put in localStorage
 * before every page load, where the console reads them.
 */
export async function newLaptopSession(
  browser: Browser,
  options: { viewport: Laptop; language: Language; theme?: Theme; storageState?: StorageState },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: options.viewport,
    locale: options.language === 'zh' ? 'zh-CN' : 'en-US',
    ...(options.storageState ? { storageState: options.storageState } : {}),
  });
  context.setDefaultTimeout(30_000);
  await context.addInitScript(
    ([language, theme]) => {
      localStorage.setItem('i18nextLng', language);
      localStorage.setItem('theme-mode', theme);
    },
    [options.language, options.theme ?? 'light'] as const,
  );
  context.on('page', (opened) => {
    openPages.add(opened);
    opened.once('close', () => openPages.delete(opened));
  });
  const page = await context.newPage();
  return { context, page };
}

/**
 * Asserts that `target` can be seen and clicked where it is: wholly inside the viewport and not
 * covered by another element (a fixed column's cell is drawn over the scrolled ones).
 */
export async function expectReachable(target: Locator, what: string): Promise<void> {
  // Brought into view vertically only: scrolling the table sideways would hide what is tested.
  await target.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    if (rect.top < 0 || rect.bottom > window.innerHeight) {
      window.scrollBy(0, rect.top - window.innerHeight / 2);
    }
  });
  const box = await target.boundingBox();
  const page = target.page();
  const viewport = page.viewportSize();
  expect(box, `${what}: not rendered`).not.toBeNull();
  expect(viewport).not.toBeNull();
  if (!box || !viewport) return;
  expect(box.x, `${what}: starts left of the viewport`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what}: ends beyond the right edge`).toBeLessThanOrEqual(viewport.width);
  const onTop = await target.evaluate((element) => {
    const rect = element.getBoundingClientRect();
    const hit = document.elementFromPoint(rect.left + rect.width / 2, rect.top + rect.height / 2);
    return hit !== null && (element === hit || element.contains(hit));
  });
  expect(onTop, `${what}: covered by another element`).toBe(true);
}

/** The page does not scroll sideways: wide tables scroll inside themselves. */
export async function expectNoPageScroll(page: Page, what: string): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow, `${what}: the page scrolls sideways`).toBeLessThanOrEqual(0);
}
