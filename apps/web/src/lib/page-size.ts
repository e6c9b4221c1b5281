import { readString, writeString } from './storage';

/** Page sizes offered by every console table. */
export const PAGE_SIZE_OPTIONS = [10, 20, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 10;
/** localStorage key remembering the chosen page size. */
export const PAGE_SIZE_STORAGE_KEY = 'page-size';

export function getStoredPageSize(): number {
  const value = Number(readString(PAGE_SIZE_STORAGE_KEY));
  return (PAGE_SIZE_OPTIONS as readonly number[]).includes(value) ? value : DEFAULT_PAGE_SIZE;
}

export function storePageSize(size: number): void {
  writeString(PAGE_SIZE_STORAGE_KEY, String(size));
}
