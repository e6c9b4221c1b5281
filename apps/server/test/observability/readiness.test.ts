import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AppServices } from '../../src/app-services.ts';
import { loadConfig } from '../../src/config/env.ts';
import { openDatabase } from '../../src/db/database.ts';
import { ReadinessChecker } from '../../src/observability/readiness.ts';
import { buildTestApp } from '../helper.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379/0';

describe('/readyz', () => {
  it('checks a configured Redis with PING', async () => {
    const t = await buildTestApp({ REDIS_CONN_STRING: REDIS_URL });
    try {
      // The checker connects when the app starts; give it the moment a local connection takes.
      let body: { status: string; checks: Record<string, string> } | undefined;
      for (let attempt = 0; attempt < 50; attempt += 1) {
        const response = await t.app.inject({ method: 'GET', url: '/readyz' });
        body = response.json();
        if (response.statusCode === 200) break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(body).toEqual({
        status: 'ok',
        checks: { database: 'ok', log_database: 'skipped', redis: 'ok', shutdown: 'ok' },
      });
    } finally {
      await t.close();
    }
  });

  it('answers 503 naming Redis when it is unreachable, while /healthz stays 200', async () => {
    // Nothing listens on port 1: the connection is refused at once.
    const t = await buildTestApp({ REDIS_CONN_STRING: 'redis://127.0.0.1:1/0' });
    try {
      const response = await t.app.inject({ method: 'GET', url: '/readyz' });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({
        status: 'unavailable',
        checks: { database: 'ok', log_database: 'skipped', redis: 'unreachable', shutdown: 'ok' },
      });
      expect(response.body).not.toContain('127.0.0.1');
      expect((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

describe('ReadinessChecker', () => {
  it('reports an unreachable database and a node that is shutting down', async () => {
    const directory = mkdtempSync(join(tmpdir(), 'sy-ready-'));
    const database = openDatabase({ kind: 'sqlite', location: join(directory, 'ready.db') });
    const failures: string[] = [];
    const services = { config: loadConfig({}), database, logDatabase: database } as unknown as AppServices;
    const checker = new ReadinessChecker(services, (part) => failures.push(part));
    try {
      expect(await checker.check()).toEqual({
        ready: true,
        checks: { database: 'ok', log_database: 'skipped', redis: 'skipped', shutdown: 'ok' },
      });
      checker.markShuttingDown();
      expect(await checker.check()).toMatchObject({
        ready: false,
        checks: { database: 'ok', shutdown: 'shutting_down' },
      });
      await database.destroy();
      expect(await checker.check()).toMatchObject({ ready: false, checks: { database: 'unreachable' } });
      expect(failures).toEqual(['database']);
    } finally {
      checker.close();
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
