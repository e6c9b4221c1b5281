import { Role } from '@switchyard/shared';
import { describe, expect, it } from 'vitest';
import { isRefusedOnDemoSite } from './demo-site-guard.ts';

describe('demo-site mode', () => {
  it('never refuses reads', () => {
    expect(isRefusedOnDemoSite('GET', '/api/option', Role.Common)).toBe(false);
    expect(isRefusedOnDemoSite('GET', '/api/channel/test/1', Role.Admin)).toBe(false);
  });

  it('lets visitors sign up, sign in, manage tokens and redeem codes', () => {
    for (const [method, path] of [
      ['POST', '/api/user/login'],
      ['POST', '/api/user/register'],
      ['POST', '/api/user/topup'],
      ['POST', '/api/token'],
      ['PUT', '/api/token'],
      ['DELETE', '/api/token/3'],
    ] as const) {
      expect(isRefusedOnDemoSite(method, path, undefined), `${method} ${path}`).toBe(false);
    }
  });

  it('refuses account changes, payments and admin changes to everyone but root', () => {
    for (const [method, path] of [
      ['PUT', '/api/user/self'],
      ['DELETE', '/api/user/self'],
      ['PUT', '/api/user/setting'],
      ['POST', '/api/user/pay'],
      ['POST', '/api/user/amount'],
      ['POST', '/api/channel'],
      ['PUT', '/api/option'],
      ['POST', '/api/user/manage'],
      ['POST', '/api/redemption'],
    ] as const) {
      expect(isRefusedOnDemoSite(method, path, Role.Admin), `${method} ${path}`).toBe(true);
      expect(isRefusedOnDemoSite(method, path, Role.Root), `${method} ${path} as root`).toBe(false);
    }
  });
});
