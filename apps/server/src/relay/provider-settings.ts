import { DEFAULT_PROVIDER_SETTINGS, type ProviderSettings } from '@switchyard/relay-kit';
import type { OptionStore } from '../options/option-store.ts';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isString = (entry: unknown): entry is string => typeof entry === 'string';
const isPositiveInteger = (entry: unknown): entry is number =>
  typeof entry === 'number' && Number.isInteger(entry) && entry > 0;

/** The entries of a JSON object option that `keep` accepts; a copy of `fallback` when it is no object. */
function tableOf<T>(
  options: OptionStore,
  key: string,
  fallback: Readonly<Record<string, T>>,
  keep: (entry: unknown) => entry is T,
): Record<string, T> {
  const value = options.getJson(key);
  if (!isRecord(value)) return { ...fallback };
  const table: Record<string, T> = {};
  for (const [key, entry] of Object.entries(value)) if (keep(entry)) table[key] = entry;
  return table;
}

/** `claude.model_headers_settings`: model → header → list of values (a single string is accepted). */
function headerTable(value: unknown): Record<string, Record<string, string[]>> {
  const table: Record<string, Record<string, string[]>> = {};
  if (!isRecord(value)) return table;
  for (const [model, headers] of Object.entries(value)) {
    if (!isRecord(headers)) continue;
    const entry: Record<string, string[]> = {};
    for (const [name, values] of Object.entries(headers)) {
      if (typeof values === 'string') entry[name] = [values];
      else if (Array.isArray(values)) entry[name] = values.filter((item) => typeof item === 'string');
    }
    table[model] = entry;
  }
  return table;
}

/** Reads the `claude.*` and `gemini.*` options into the shape adapters take. */
export function readProviderSettings(options: OptionStore): ProviderSettings {
  const percentage = options.getNumber('claude.thinking_adapter_budget_tokens_percentage');
  const defaults = DEFAULT_PROVIDER_SETTINGS;
  return {
    claude: {
      modelHeaders: headerTable(options.getJson('claude.model_headers_settings')),
      defaultMaxTokens: tableOf(
        options,
        'claude.default_max_tokens',
        defaults.claude.defaultMaxTokens,
        isPositiveInteger,
      ),
      thinkingAdapterEnabled: options.getBoolean('claude.thinking_adapter_enabled'),
      thinkingBudgetPercentage:
        percentage > 0 && percentage < 1 ? percentage : defaults.claude.thinkingBudgetPercentage,
    },
    gemini: {
      safetySettings: tableOf(options, 'gemini.safety_settings', defaults.gemini.safetySettings, isString),
      versionSettings: tableOf(options, 'gemini.version_settings', defaults.gemini.versionSettings, isString),
    },
  };
}

/** The current settings, rebuilt only after a `claude.*` or `gemini.*` option changes. */
export function createProviderSettingsSource(options: OptionStore): () => ProviderSettings {
  let current: ProviderSettings | undefined;
  options.onChange((key) => {
    if (key.startsWith('claude.') || key.startsWith('gemini.')) current = undefined;
  });
  return () => {
    current ??= readProviderSettings(options);
    return current;
  };
}
