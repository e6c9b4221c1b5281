import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { i18n } from '../lib/i18n';

// antd forms validate asynchronously and the suite runs files in parallel: be patient.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no layout: answer width media queries from window.innerWidth so tests can set a width.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  configurable: true,
  value: (query: string) => {
    const max = /max-width:\s*(\d+)px/.exec(query);
    const min = /min-width:\s*(\d+)px/.exec(query);
    const width = window.innerWidth;
    const matches = (!max || width <= Number(max[1])) && (!min || width >= Number(min[1]));
    return {
      matches,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    };
  },
});

if (!('ResizeObserver' in window)) {
  class ResizeObserverStub {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  Object.defineProperty(window, 'ResizeObserver', {
    writable: true,
    configurable: true,
    value: ResizeObserverStub,
  });
}

// antd measures scrollbars with pseudo-element styles, which jsdom does not implement.
const originalGetComputedStyle = window.getComputedStyle.bind(window);
window.getComputedStyle = (element: Element) => originalGetComputedStyle(element);

// jsdom does not scroll; the router's ScrollRestoration calls window.scrollTo on every navigation.
window.scrollTo = () => undefined;

const DEFAULT_WIDTH = 1280;
window.innerWidth = DEFAULT_WIDTH;

afterEach(async () => {
  cleanup();
  window.localStorage.clear();
  window.innerWidth = DEFAULT_WIDTH;
  vi.restoreAllMocks();
  vi.useRealTimers();
  if (i18n.language !== 'zh') await i18n.changeLanguage('zh');
});
