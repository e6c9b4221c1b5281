import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { type BuildAppOptions, buildApp } from '../src/app.ts';
import { type Config, loadConfig } from '../src/config/env.ts';
import { createTestDatabase, type TestDatabase } from './support/test-database.ts';

process.env.BCRYPT_COST ??= '4';

/** A built app on a throwaway database of the selected kind. */
export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  close(): Promise<void>;
  /** Logs in with a password and returns a client carrying the session cookie and New-Api-User. */
  login(username: string, password: string): Promise<ConsoleClient>;
  /** A client with no session. */
  anonymous(): ConsoleClient;
}

type Body = InjectOptions['payload'];

/** Thin wrapper over app.inject for console API calls. */
export class ConsoleClient {
  constructor(
    private readonly app: FastifyInstance,
    public cookie: string | null,
    public userId: number | null,
    public extraHeaders: Record<string, string> = {},
  ) {}

  request(
    method: InjectOptions['method'],
    url: string,
    payload?: Body,
    headers: Record<string, string> = {},
  ) {
    const all: Record<string, string> = { ...this.extraHeaders, ...headers };
    if (this.cookie) all.cookie = this.cookie;
    if (this.userId !== null && !('new-api-user' in all)) all['new-api-user'] = String(this.userId);
    return this.app.inject({ method, url, payload, headers: all });
  }
  get = (url: string, headers?: Record<string, string>) => this.request('GET', url, undefined, headers);
  post = (url: string, payload?: Body, headers?: Record<string, string>) =>
    this.request('POST', url, payload, headers);
  put = (url: string, payload?: Body, headers?: Record<string, string>) =>
    this.request('PUT', url, payload, headers);
  delete = (url: string, headers?: Record<string, string>) => this.request('DELETE', url, undefined, headers);
}

/** Parses a console API reply body. */
// biome-ignore lint/suspicious/noExplicitAny: reply data shapes vary per route; tests assert on them.
export function envelope(response: LightMyRequestResponse): { success: boolean; message: string; data: any } {
  return response.json();
}

/** Logs in with a password and returns a client carrying the session cookie and New-Api-User. */
export async function loginTo(
  app: FastifyInstance,
  username: string,
  password: string,
): Promise<ConsoleClient> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/user/login',
    payload: { username, password },
  });
  const body = response.json();
  if (!body.success) throw new Error(`login failed for ${username}: ${body.message}`);
  const setCookie = response.headers['set-cookie'];
  const cookie = String(Array.isArray(setCookie) ? setCookie[0] : setCookie).split(';')[0]!;
  return new ConsoleClient(app, cookie, body.data.id);
}

/** Options of a test app beyond its environment. */
export interface TestAppOptions {
  /** Fastify's logger option (silent when absent), e.g. `{ level: 'warn', stream }` to read its lines. */
  logger?: BuildAppOptions['logger'];
}

/**
 * Builds the app on a fresh database (on PostgreSQL a copy of the run's migrated template,
 * `support/migrated-template-setup.ts`); environment overrides apply on top of test defaults.
 */
export async function buildTestApp(
  env: Record<string, string> = {},
  options: TestAppOptions = {},
): Promise<TestApp> {
  const database = await createTestDatabase(inject('postgresTemplate'));
  const config: Config = {
    ...loadConfig({
      GLOBAL_API_RATE_LIMIT_ENABLE: 'false',
      CRITICAL_RATE_LIMIT: '100000',
      SESSION_SECRET: 'switchyard-test-session-secret',
      ...env,
    }),
    database: database.target,
  };
  let app: FastifyInstance;
  try {
    app = await buildApp({ config, logger: options.logger ?? false });
  } catch (error) {
    await database.drop();
    throw error;
  }
  const login = (username: string, password: string) => loginTo(app, username, password);
  return {
    app,
    database,
    login,
    anonymous: () => new ConsoleClient(app, null, null),
    close: async () => {
      await app.close();
      await database.drop();
    },
  };
}
