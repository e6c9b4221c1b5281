import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type ConsoleClient, envelope, type TestApp } from '../helper.ts';

describe('demo-site mode (DemoSiteEnabled)', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let visitor: ConsoleClient;

  beforeAll(async () => {
    t = await buildTestApp();
    root = await t.login('root', '123456');
    expect(
      envelope(await root.post('/api/user/', { username: 'visitor', password: 'password123' })).success,
    ).toBe(true);
    visitor = await t.login('visitor', 'password123');
    expect(envelope(await root.put('/api/option/', { key: 'DemoSiteEnabled', value: 'true' })).success).toBe(
      true,
    );
  });
  afterAll(async () => t.close());

  it('shows the mode in the public status', async () => {
    expect(envelope(await visitor.get('/api/status')).data.demo_site_enabled).toBe(true);
  });

  it('refuses account changes and payments with 405 and the demo-site message', async () => {
    for (const reply of [
      await visitor.put('/api/user/self', { password: 'changed-password' }),
      await visitor.delete('/api/user/self'),
      await visitor.post('/api/user/pay', { amount: 10, top_up_code: '', payment_method: 'zfb' }),
    ]) {
      expect(reply.statusCode).toBe(405);
      expect(reply.json()).toEqual({ success: false, message: '演示站点不支持此操作' });
    }
    expect(await t.login('visitor', 'password123')).toBeTruthy();
  });

  it('still lets visitors create tokens and read their data', async () => {
    const created = envelope(
      await visitor.post('/api/token/', {
        name: 'demo',
        remain_quota: 0,
        unlimited_quota: true,
        expired_time: -1,
      }),
    );
    expect(created.success, created.message).toBe(true);
    expect(envelope(await visitor.get('/api/user/self')).success).toBe(true);
  });

  it('leaves the root user in control', async () => {
    const reply = envelope(await root.put('/api/option/', { key: 'SystemName', value: 'Demo gateway' }));
    expect(reply.success, reply.message).toBe(true);
    expect(envelope(await root.put('/api/option/', { key: 'DemoSiteEnabled', value: 'false' })).success).toBe(
      true,
    );
    expect((await visitor.put('/api/user/self', { display_name: 'after demo' })).statusCode).toBe(200);
  });
});
