import { createStoredValue } from './external-store';

export type ThemeMode = 'light' | 'dark';
/** localStorage key remembering the theme. */
export const THEME_STORAGE_KEY = 'theme-mode';

const store = createStoredValue<ThemeMode>({
  key: THEME_STORAGE_KEY,
  parse: (raw) => (raw === 'dark' ? 'dark' : 'light'),
  serialize: (mode) => mode,
});

export const getThemeMode = (): ThemeMode => store.get();
export const setThemeMode = (mode: ThemeMode): void => store.set(mode);
export const toggleThemeMode = (): void => store.set(store.get() === 'dark' ? 'light' : 'dark');
/** React hook: the current theme mode. */
export const useThemeMode = (): ThemeMode => store.use();
