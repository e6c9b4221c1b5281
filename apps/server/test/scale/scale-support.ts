import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { buildApp } from '../../src/app.ts';
import { type Config, type DatabaseTarget, loadConfig } from '../../src/config/env.ts';
import { ConsoleClient } from '../helper.ts';
import { serverArguments } from '../support/server-bundle.ts';
import type { testDatabaseKind } from '../support/test-database.ts';

/** One gateway node of a multi-node test, reachable over loopback HTTP. */
export interface GatewayNode {
  name: string;
  url: string;
  /** Present for nodes built in this process (absent for a child process). */
  app?: FastifyInstance;
  /** Waits for its settlements and queued logs (in-process), or stops it gracefully (child). */
  quiesce(): Promise<void>;
  close(): Promise<void>;
}

export const SESSION_SECRET = 'switchyard-scale-session-secret';

const baseEnv = (env: Record<string, string>) => ({
  GLOBAL_API_RATE_LIMIT_ENABLE: 'false',
  CRITICAL_RATE_LIMIT: '100000',
  SESSION_SECRET,
  ...env,
});

/** Builds and starts a node in this process on the shared database. */
export async function startNode(
  name: string,
  target: DatabaseTarget,
  env: Record<string, string>,
  logLines?: string[],
): Promise<GatewayNode> {
  const config: Config = { ...loadConfig(baseEnv(env)), database: target };
  const logger = logLines
    ? { level: 'info', stream: { write: (line: string) => logLines.push(line) } }
    : false;
  const app = await buildApp({ config, logger });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    name,
    url: `http://127.0.0.1:${port}`,
    app,
    quiesce: () => app.services.relay.drain(),
    close: () => app.close(),
  };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  await new Promise((done) => server.close(done));
  return typeof address === 'object' && address ? address.port : 0;
}

const serverDirectory = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Starts a node as a separate process (the server bundle, `support/server-bundle.ts`), the way a second gateway
 * shares a SQLite file: two connections in one process would block each other's event loop.
 * `quiesce` stops it with SIGTERM, which settles in-flight calls and flushes logs before exit.
 */
export async function startChildNode(name: string, env: Record<string, string>): Promise<GatewayNode> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, serverArguments(), {
    cwd: serverDirectory,
    env: { ...process.env, ...baseEnv(env), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 45_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`node ${name} exited at start: ${stderr}`);
    const ok = await fetch(`${url}/healthz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`node ${name} did not start: ${stderr}`);
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    const code = await exited;
    if (code !== 0) throw new Error(`node ${name} stopped with code ${code}: ${stderr}`);
  };
  return { name, url, quiesce: stop, close: () => stop().catch(() => undefined) };
}

/** Logs in as root on an in-process node (sessions are valid on every node). */
export async function rootClient(app: FastifyInstance): Promise<ConsoleClient> {
  const response = await app.inject({
    method: 'POST',
    url: '/api/user/login',
    payload: { username: 'root', password: '123456' },
  });
  const body = response.json();
  if (!body.success) throw new Error(`root login failed: ${body.message}`);
  const setCookie = response.headers['set-cookie'];
  const cookie = String(Array.isArray(setCookie) ? setCookie[0] : setCookie).split(';')[0]!;
  return new ConsoleClient(app, cookie, body.data.id);
}

/**
 * The Redis the multi-node tests share, on a database index of their own per database kind so
 * parallel projects never count each other's rate-limit hits. Change notifications are global to
 * the Redis server; hearing another test's changes only drops cached entries, which is harmless.
 */
export async function scaleRedis(kind: typeof testDatabaseKind): Promise<string> {
  const url = `${process.env.TEST_REDIS_BASE_URL ?? 'redis://127.0.0.1:6379'}/${kind === 'mysql' ? 12 : 11}`;
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', 'rateLimit:*', 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return url;
}

/** Runs `count` tasks with at most `concurrency` at a time; results in task order. */
export async function runPool<T>(count: number, concurrency: number, task: (index: number) => Promise<T>) {
  const results: T[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const index = next++;
      results[index] = await task(index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  return results;
}
