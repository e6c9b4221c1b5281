import { describe, expect, it } from 'vitest';
import { OPTION_DEFAULTS } from './option-defaults.ts';
import { checkOptionWrite, INVALID_JSON_MESSAGE } from './option-validation.ts';

const current = (key: string) => OPTION_DEFAULTS[key] ?? '';

describe('checkOptionWrite', () => {
  it.each([
    ['GroupRatio', '{"default":1', INVALID_JSON_MESSAGE],
    ['ModelRatio', '[1,2]', INVALID_JSON_MESSAGE],
    ['gemini.version_settings', 'nope', INVALID_JSON_MESSAGE],
    ['Chats', '{}', INVALID_JSON_MESSAGE],
    ['GroupRatio', '{"vip":-1}', 'GroupRatio 中 vip 的值不能为负数'],
    ['ModelPrice', '{"a":"x"}', 'ModelPrice 中 a 的值必须是数字'],
  ])('refuses %s = %s', (key, value, message) => {
    expect(checkOptionWrite(key, value, current)).toEqual({ ok: false, message });
  });

  it('refuses values longer than the options column holds (65,535 bytes, counted in UTF-8)', () => {
    expect(checkOptionWrite('Notice', 'x'.repeat(65_535), current).ok).toBe(true);
    expect(checkOptionWrite('Notice', 'x'.repeat(65_536), current).ok).toBe(false);
    expect(checkOptionWrite('Notice', '公'.repeat(21_846), current).ok).toBe(false);
  });

  it('takes non-negative integer token counts per model in PreConsumedQuotaByModel', () => {
    expect(checkOptionWrite('PreConsumedQuotaByModel', '{"gpt-4o":4000,"o1":0}', current)).toEqual({
      ok: true,
      value: '{"gpt-4o":4000,"o1":0}',
    });
    for (const bad of ['{"gpt-4o":-1}', '{"gpt-4o":1.5}', '{"gpt-4o":"4000"}']) {
      expect(checkOptionWrite('PreConsumedQuotaByModel', bad, current)).toEqual({
        ok: false,
        message: 'PreConsumedQuotaByModel 中 gpt-4o 的值必须是非负整数',
      });
    }
  });

  it('accepts valid JSON unchanged', () => {
    expect(checkOptionWrite('GroupRatio', '{"default":1,"vip":2}', current)).toEqual({
      ok: true,
      value: '{"default":1,"vip":2}',
    });
  });

  it('removes trailing slashes from addresses', () => {
    expect(checkOptionWrite('ServerAddress', 'https://gw.example.com//', current)).toEqual({
      ok: true,
      value: 'https://gw.example.com',
    });
    expect(checkOptionWrite('WorkerUrl', 'ftp://x', current).ok).toBe(false);
  });

  it('checks booleans and their prerequisites', () => {
    expect(checkOptionWrite('RegisterEnabled', true, current)).toEqual({ ok: true, value: 'true' });
    expect(checkOptionWrite('RegisterEnabled', 'yes', current).ok).toBe(false);
    const github = checkOptionWrite('GitHubOAuthEnabled', 'true', current);
    expect(github).toEqual({ ok: false, message: expect.stringContaining('GitHub') });
    const filled = (key: string) => (key.startsWith('GitHub') ? 'x' : current(key));
    expect(checkOptionWrite('GitHubOAuthEnabled', 'true', filled).ok).toBe(true);
  });

  it('applies numeric bounds', () => {
    expect(checkOptionWrite('DataExportInterval', '0', current).ok).toBe(false);
    expect(checkOptionWrite('DataExportInterval', '1', current).ok).toBe(true);
    expect(checkOptionWrite('MinTopUp', '0', current).ok).toBe(false);
    expect(checkOptionWrite('ModelRequestRateLimitSuccessCount', '0', current).ok).toBe(false);
    expect(checkOptionWrite('claude.thinking_adapter_budget_tokens_percentage', '0.05', current).ok).toBe(
      false,
    );
    expect(checkOptionWrite('claude.thinking_adapter_budget_tokens_percentage', '1', current).ok).toBe(true);
    expect(checkOptionWrite('RetryTimes', '1.5', current).ok).toBe(false);
    expect(checkOptionWrite('QuotaPerUnit', 'abc', current).ok).toBe(false);
  });

  it('refuses unknown keys and non-scalar values', () => {
    expect(checkOptionWrite('NoSuchOption', 'x', current).ok).toBe(false);
    expect(checkOptionWrite('Notice', { a: 1 }, current).ok).toBe(false);
  });
});

describe('log retention days', () => {
  const keys = ['LogConsumeRetentionDays', 'LogErrorRetentionDays', 'LogDetailRetentionDays'];

  it('default to 0 (keep forever)', () => {
    for (const key of keys) expect(OPTION_DEFAULTS[key]).toBe('0');
  });

  it('take whole days from 0 to 3650', () => {
    for (const key of keys) {
      for (const value of ['0', '1', ' 30 ', 90, '3650']) {
        expect(checkOptionWrite(key, value, current)).toEqual({ ok: true, value: String(value).trim() });
      }
    }
  });

  it.each([
    ['-1', '配置项 LogConsumeRetentionDays 的值不能小于 0'],
    ['1.5', '配置项 LogConsumeRetentionDays 的值必须是整数'],
    ['3651', '配置项 LogConsumeRetentionDays 的值不能大于 3650'],
    ['thirty', '配置项 LogConsumeRetentionDays 的值必须是数字'],
    ['', '配置项 LogConsumeRetentionDays 的值必须是数字'],
  ])('refuse %j', (value, message) => {
    expect(checkOptionWrite('LogConsumeRetentionDays', value, current)).toEqual({ ok: false, message });
  });
});
