import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { type Config, type DatabaseTarget, loadConfig } from '../../src/config/env.ts';
import { ConsoleClient, envelope } from '../helper.ts';

/** Shared helpers of the console integration tests (not a test file itself). */

export const ROOT_PASSWORD = '123456';
export const NO_PERMISSION = '无权进行此操作，权限不足';

/** Asserts a console API refusal: the envelope with success=false (HTTP 200 unless `status`). */
export function expectRefused(response: LightMyRequestResponse, message?: string | RegExp, status = 200) {
  expect(response.statusCode, response.body).toBe(status);
  const body = envelope(response);
  expect(body.success, response.body).toBe(false);
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  if (typeof message === 'string') expect(body.message).toBe(message);
  else if (message) expect(body.message).toMatch(message);
  return body;
}

/** Asserts a successful console API reply and returns its data. */
// biome-ignore lint/suspicious/noExplicitAny: tests read reply data loosely, field by field.
export function expectOk(response: LightMyRequestResponse): any {
  expect(response.statusCode, response.body).toBe(200);
  const body = envelope(response);
  expect(body.success, response.body).toBe(true);
  return body.data;
}

let sequence = 0;
/** A username unique within the run (≤ 12 characters). */
export function uniqueName(prefix: string): string {
  sequence += 1;
  return `${prefix}${sequence}${Math.random().toString(36).slice(2, 5)}`.slice(0, 12);
}

/** Creates a user through the admin API and returns its id. */
export async function createUser(
  admin: ConsoleClient,
  username: string,
  password = 'password123',
  role?: number,
): Promise<number> {
  expectOk(await admin.post('/api/user/', { username, password, ...(role === undefined ? {} : { role }) }));
  // The newest users come first in the plain list (no keyword, so no LIKE involved).
  const found = expectOk(await admin.get('/api/user/?p=1&page_size=20'));
  const row = found.items.find((item: { username: string }) => item.username === username);
  expect(row, `created user ${username}`).toBeDefined();
  return row.id;
}

/** Sets one option as root and asserts it was accepted. */
export async function setOption(root: ConsoleClient, key: string, value: string | number | boolean) {
  expectOk(await root.put('/api/option/', { key, value }));
}

/** Reads one option through GET /api/option/ (undefined when hidden). */
export async function readOption(root: ConsoleClient, key: string): Promise<string | undefined> {
  const items = expectOk(await root.get('/api/option/')) as Array<{ key: string; value: string }>;
  return items.find((item) => item.key === key)?.value;
}

/** The session cookie a reply sets (name=value), or null when it sets none. */
export function sessionCookieOf(response: LightMyRequestResponse): string | null {
  const header = response.headers['set-cookie'];
  const all = Array.isArray(header) ? header : header ? [String(header)] : [];
  const session = all.find((value) => value.startsWith('session='));
  return session ? session.split(';')[0]! : null;
}

/** Logs in and returns a client, or the raw refusal when `expectFailure`. */
export async function loginClient(app: FastifyInstance, username: string, password: string) {
  const response = await app.inject({
    method: 'POST',
    url: '/api/user/login',
    payload: { username, password },
  });
  const data = expectOk(response);
  return new ConsoleClient(app, sessionCookieOf(response), data.id);
}

/**
 * A second node on the database of an existing test app (for multi-node tests). Closing it does
 * not drop the database; the first app owns it.
 */
export async function buildPeerApp(target: DatabaseTarget, env: Record<string, string> = {}) {
  const config: Config = {
    ...loadConfig({
      GLOBAL_API_RATE_LIMIT_ENABLE: 'false',
      CRITICAL_RATE_LIMIT: '100000',
      SESSION_SECRET: 'switchyard-test-session-secret',
      ...env,
    }),
    database: target,
  };
  return buildApp({ config, logger: false });
}
