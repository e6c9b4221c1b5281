import { useSyncExternalStore } from 'react';

/** Viewports this wide or narrower get the mobile layout (spec: mobile width 600). */
export const MOBILE_MAX_WIDTH = 600;

const query = `(max-width: ${MOBILE_MAX_WIDTH}px)`;

function getSnapshot(): boolean {
  if (typeof window === 'undefined') return false;
  if (typeof window.matchMedia === 'function') return window.matchMedia(query).matches;
  return window.innerWidth <= MOBILE_MAX_WIDTH;
}

function subscribe(listener: () => void): () => void {
  window.addEventListener('resize', listener);
  return () => window.removeEventListener('resize', listener);
}

/** True at widths ≤ 600 px. */
export function useIsMobile(): boolean {
  return useSyncExternalStore(subscribe, getSnapshot, () => false);
}
