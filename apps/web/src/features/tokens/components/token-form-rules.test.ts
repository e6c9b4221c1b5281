import { describe, expect, it } from 'vitest';
import {
  buildTokenBody,
  formatExpiry,
  newTokenValues,
  parseExpiry,
  QUOTA_PRESETS,
  quickExpiry,
  tokenToFormValues,
  tokenToggleState,
} from './token-form-rules';

describe('token editor rules', () => {
  it('starts with quota 500000, no expiry and count 1', () => {
    expect(newTokenValues()).toMatchObject({
      remain_quota: 500000,
      expiry: '-1',
      count: 1,
      unlimited_quota: false,
    });
    expect(QUOTA_PRESETS.map((preset) => preset.quota)).toEqual([
      500000, 5000000, 25000000, 50000000, 250000000, 500000000,
    ]);
  });

  it('parses -1 and yyyy-MM-dd HH:mm:ss, and nothing else', () => {
    expect(parseExpiry('-1')).toBe(-1);
    const seconds = parseExpiry('2030-02-03 04:05:06');
    expect(seconds).toBe(Math.floor(new Date(2030, 1, 3, 4, 5, 6).getTime() / 1000));
    expect(formatExpiry(seconds as number)).toBe('2030-02-03 04:05:06');
    for (const bad of ['', 'tomorrow', '2030-02-30 00:00:00', '2030-2-3 4:5:6', '1700000000']) {
      expect(parseExpiry(bad)).toBeNull();
    }
  });

  it('quick buttons set never, one hour, one day and one month ahead', () => {
    const now = new Date(2030, 0, 31, 10, 0, 0);
    expect(quickExpiry('never', now)).toBe('-1');
    expect(quickExpiry('hour', now)).toBe('2030-01-31 11:00:00');
    expect(quickExpiry('day', now)).toBe('2030-02-01 10:00:00');
    expect(quickExpiry('month', now)).toBe('2030-02-28 10:00:00');
  });

  it('requires a name on create and refuses bad expiry, count and quota', () => {
    const base = { ...newTokenValues(), name: 'ci' };
    expect(buildTokenBody({ ...base, name: ' ' }, true)).toEqual({ error: 'nameRequired' });
    expect(buildTokenBody({ ...base, expiry: 'soon' }, true)).toEqual({ error: 'expiryInvalid' });
    expect(buildTokenBody({ ...base, count: 0 }, true)).toEqual({ error: 'countInvalid' });
    expect(buildTokenBody({ ...base, count: 2.5 }, true)).toEqual({ error: 'countInvalid' });
    expect(buildTokenBody({ ...base, remain_quota: -1 }, true)).toEqual({ error: 'quotaNegative' });
    // On update the name may stay empty (the server keeps it) and count is not sent.
    const update = buildTokenBody({ ...base, name: '', count: 0 }, false);
    expect('body' in update && ('count' in update.body || 'name' in update.body)).toBe(false);
  });

  it('sends model limits only when the switch is on and one IP per line', () => {
    const values = {
      ...newTokenValues(),
      name: 'ci',
      count: 10,
      model_limits: ['gpt-4o', 'gpt-4o-mini'],
      allow_ips: ' 10.0.0.1 \n\n192.168.0.0/16\n',
    };
    const off = buildTokenBody(values, true);
    expect(off).toEqual({
      body: expect.objectContaining({ model_limits: '', model_limits_enabled: false, count: 10 }),
    });
    const on = buildTokenBody({ ...values, model_limits_enabled: true }, true);
    expect('body' in on && on.body.model_limits).toBe('gpt-4o,gpt-4o-mini');
    expect('body' in on && on.body.allow_ips).toBe('10.0.0.1\n192.168.0.0/16');
  });

  it("leaves an empty group undefined (the select's placeholder: the user's group) and sends it as ''", () => {
    expect(newTokenValues().group).toBeUndefined();
    const stored = { id: 1, name: 'a', key: 'sk-x', status: 1, expired_time: -1, remain_quota: 0 };
    const view = { ...stored, unlimited_quota: true, model_limits_enabled: false, model_limits: '' };
    const token = { ...view, used_quota: 0, created_time: 0, accessed_time: 0, user_id: 1, allow_ips: '' };
    expect(tokenToFormValues({ ...token, group: '' }).group).toBeUndefined();
    expect(tokenToFormValues({ ...token, group: 'vip' }).group).toBe('vip');
    const built = buildTokenBody({ ...newTokenValues(), name: 'a' }, true);
    expect('body' in built && built.body.group).toBe('');
  });

  it('offers disable for enabled tokens and blocks enabling expired or exhausted ones', () => {
    const token = { status: 1, expired_time: -1, remain_quota: 10, unlimited_quota: false };
    expect(tokenToggleState(token, 1000)).toEqual({ action: 'disable', blocked: null });
    expect(tokenToggleState({ ...token, status: 2 }, 1000)).toEqual({ action: 'enable', blocked: null });
    expect(tokenToggleState({ ...token, status: 3 }, 1000).blocked).toBe('expired');
    expect(tokenToggleState({ ...token, status: 2, expired_time: 999 }, 1000).blocked).toBe('expired');
    expect(tokenToggleState({ ...token, status: 4 }, 1000).blocked).toBe('exhausted');
    expect(tokenToggleState({ ...token, status: 2, remain_quota: 0 }, 1000).blocked).toBe('exhausted');
    expect(
      tokenToggleState({ ...token, status: 2, remain_quota: 0, unlimited_quota: true }, 1000).blocked,
    ).toBeNull();
  });
});
