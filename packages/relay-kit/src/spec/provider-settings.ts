/**
 * Site-wide model settings (the `claude.*` and `gemini.*` options) that adapters apply when they
 * build requests. The server parses the option JSON once per change and passes the result to
 * `ProviderAdapter.buildRequest`; adapters never read options themselves.
 */
export interface ProviderSettings {
  readonly claude: {
    /** `claude.model_headers_settings`: model → header name → values (joined with `,`). */
    readonly modelHeaders: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
    /** `claude.default_max_tokens`: model → max_tokens when the request has none; key `default`. */
    readonly defaultMaxTokens: Readonly<Record<string, number>>;
    /** `claude.thinking_adapter_enabled`: the `-thinking` model suffix turns thinking on. */
    readonly thinkingAdapterEnabled: boolean;
    /** `claude.thinking_adapter_budget_tokens_percentage`: budget_tokens = max_tokens × this. */
    readonly thinkingBudgetPercentage: number;
  };
  readonly gemini: {
    /** `gemini.safety_settings`: harm category → threshold; key `default` for the others. */
    readonly safetySettings: Readonly<Record<string, string>>;
    /** `gemini.version_settings`: model → API version (`v1beta`); key `default`. */
    readonly versionSettings: Readonly<Record<string, string>>;
  };
}

/** The reference gateway's defaults for every model setting. */
export const DEFAULT_PROVIDER_SETTINGS: ProviderSettings = {
  claude: {
    modelHeaders: {},
    defaultMaxTokens: { default: 8192 },
    thinkingAdapterEnabled: true,
    thinkingBudgetPercentage: 0.8,
  },
  gemini: {
    safetySettings: { default: 'OFF', HARM_CATEGORY_CIVIC_INTEGRITY: 'BLOCK_NONE' },
    versionSettings: { default: 'v1beta', 'gemini-1.0-pro': 'v1' },
  },
};

/** `table[model]`, else `table.default`, else `fallback`. */
export function settingForModel<T>(table: Readonly<Record<string, T>>, model: string, fallback: T): T {
  if (Object.hasOwn(table, model)) return table[model] as T;
  if (Object.hasOwn(table, 'default')) return table.default as T;
  return fallback;
}
