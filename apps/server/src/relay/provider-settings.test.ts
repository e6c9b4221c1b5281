import { DEFAULT_PROVIDER_SETTINGS } from '@switchyard/relay-kit';
import { describe, expect, it } from 'vitest';
import type { OptionStore } from '../options/option-store.ts';
import { createProviderSettingsSource, readProviderSettings } from './provider-settings.ts';

/** A minimal option store over a map (the real one's JSON and number parsing rules). */
function storeOf(values: Record<string, string>) {
  const listeners: Array<(key: string) => void> = [];
  const store = {
    get: (key: string) => values[key] ?? '',
    getBoolean: (key: string) => values[key] === 'true',
    getNumber: (key: string) => Number(values[key] ?? 'NaN'),
    getJson: (key: string) => {
      try {
        return JSON.parse(values[key] ?? 'null');
      } catch {
        return null;
      }
    },
    onChange: (listener: (key: string) => void) => listeners.push(listener),
  };
  return {
    store: store as unknown as OptionStore,
    set(key: string, value: string) {
      values[key] = value;
      for (const listener of listeners) listener(key);
    },
  };
}

describe('provider settings from the claude.* and gemini.* options', () => {
  it('reads every option into the adapters’ shape', () => {
    const { store } = storeOf({
      'claude.model_headers_settings': JSON.stringify({
        'claude-3-7-sonnet': { 'anthropic-beta': ['output-128k-2025-02-19', 'token-efficient-tools'] },
        'claude-x': { 'x-one': 'single' },
      }),
      'claude.default_max_tokens': JSON.stringify({ default: 4096, 'claude-3-7-sonnet': 64000, bad: -1 }),
      'claude.thinking_adapter_enabled': 'false',
      'claude.thinking_adapter_budget_tokens_percentage': '0.5',
      'gemini.safety_settings': JSON.stringify({ default: 'BLOCK_NONE', HARM_CATEGORY_HARASSMENT: 'OFF' }),
      'gemini.version_settings': JSON.stringify({ default: 'v1beta', 'gemini-1.0-pro': 'v1', bad: 3 }),
    });
    expect(readProviderSettings(store)).toEqual({
      claude: {
        modelHeaders: {
          'claude-3-7-sonnet': { 'anthropic-beta': ['output-128k-2025-02-19', 'token-efficient-tools'] },
          'claude-x': { 'x-one': ['single'] },
        },
        defaultMaxTokens: { default: 4096, 'claude-3-7-sonnet': 64000 },
        thinkingAdapterEnabled: false,
        thinkingBudgetPercentage: 0.5,
      },
      gemini: {
        safetySettings: { default: 'BLOCK_NONE', HARM_CATEGORY_HARASSMENT: 'OFF' },
        versionSettings: { default: 'v1beta', 'gemini-1.0-pro': 'v1' },
      },
    });
  });

  it('falls back to the reference defaults for broken values', () => {
    const { store } = storeOf({
      'claude.default_max_tokens': '[1,2]',
      'claude.thinking_adapter_budget_tokens_percentage': '7',
      'gemini.safety_settings': 'not json',
    });
    const settings = readProviderSettings(store);
    expect(settings.claude.defaultMaxTokens).toEqual(DEFAULT_PROVIDER_SETTINGS.claude.defaultMaxTokens);
    expect(settings.claude.thinkingBudgetPercentage).toBe(0.8);
    expect(settings.gemini.safetySettings).toEqual(DEFAULT_PROVIDER_SETTINGS.gemini.safetySettings);
  });

  it('rebuilds only after a claude.* or gemini.* option changes', () => {
    const { store, set } = storeOf({ 'claude.thinking_adapter_enabled': 'true' });
    const current = createProviderSettingsSource(store);
    const first = current();
    set('SystemName', 'x');
    expect(current()).toBe(first);
    set('claude.thinking_adapter_enabled', 'false');
    expect(current()).not.toBe(first);
    expect(current().claude.thinkingAdapterEnabled).toBe(false);
  });
});
