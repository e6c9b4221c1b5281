import i18next, { type Resource } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { readString, writeString } from './storage';

/** Languages the console ships; Chinese is the default. */
export const SUPPORTED_LANGUAGES = ['zh', 'en'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh';
/** localStorage key remembering the chosen language (the key i18next's detector uses). */
export const LANGUAGE_STORAGE_KEY = 'i18nextLng';

/**
 * Every `src/locales/<lang>/<namespace>.json` file is picked up automatically: a feature adds its
 * namespace by adding the two JSON files, nothing else.
 */
const files = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json', { eager: true });

function buildResources(): Resource {
  const resources: Resource = {};
  for (const [path, module] of Object.entries(files)) {
    const match = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
    if (!match) continue;
    const [, language, namespace] = match as unknown as [string, string, string];
    resources[language] ??= {};
    (resources[language] as Record<string, unknown>)[namespace] = module.default;
  }
  return resources;
}

export const NAMESPACES = [
  ...new Set(Object.keys(files).map((path) => /\/([^/]+)\.json$/.exec(path)?.[1] ?? 'common')),
];

export function normalizeLanguage(value: string | null | undefined): Language {
  if (!value) return DEFAULT_LANGUAGE;
  const lower = value.toLowerCase();
  if (lower.startsWith('en')) return 'en';
  if (lower.startsWith('zh')) return 'zh';
  return DEFAULT_LANGUAGE;
}

export function getStoredLanguage(): Language {
  return normalizeLanguage(readString(LANGUAGE_STORAGE_KEY));
}

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  resources: buildResources(),
  lng: getStoredLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...SUPPORTED_LANGUAGES],
  ns: NAMESPACES,
  defaultNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

/** Switches the UI language and remembers it. */
export async function changeLanguage(language: Language): Promise<void> {
  writeString(LANGUAGE_STORAGE_KEY, language);
  await i18n.changeLanguage(language);
  document.documentElement.lang = language;
}
