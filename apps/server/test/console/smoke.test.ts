import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, envelope, type TestApp } from '../helper.ts';

describe('server boots on the selected database', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(async () => t.close());

  it('serves the public status and lets the root user log in', async () => {
    const status = envelope(await t.anonymous().get('/api/status'));
    expect(status.success).toBe(true);
    expect(status.data.system_name).toBe('Switchyard');
    const root = await t.login('root', '123456');
    const self = envelope(await root.get('/api/user/self'));
    expect(self.data).toMatchObject({ username: 'root', role: 100, quota: 100_000_000 });
    expect(self.data.password).toBeUndefined();
  });
});
