import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startMockUpstream } from '@switchyard/mock-upstream';
import type { TestProject } from 'vitest/node';
import { ARTIFACTS_DIR, REPO_ROOT } from './support/paths';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Origin of the server under test, e.g. http://127.0.0.1:41234 */
    baseUrl: string;
    /** Base URL of the mock upstream (OpenAI/Anthropic/Gemini wire formats) to use as a channel. */
    mockUrl: string;
  }
}

const WEB_INDEX = join(REPO_ROOT, 'apps/web/dist/index.html');
const SERVER_MAIN = join(REPO_ROOT, 'apps/server/dist/main.js');
const SERVER_LOG = join(ARTIFACTS_DIR, 'e2e-server.log');
const START_TIMEOUT_MS = 60_000;

function buildIfNeeded(): void {
  const missing = !existsSync(WEB_INDEX) || !existsSync(SERVER_MAIN);
  if (!missing && process.env.E2E_BUILD !== '1') return;
  // Vitest sets NODE_ENV=test, which would make Vite emit a development build of React and antd.
  const result = spawnSync('npm', ['run', 'build', '--silent'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status ?? result.signal})`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function tail(file: string, lines = 40): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no server log)';
  }
}

async function waitForStatus(baseUrl: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(
        `the server exited during start-up (${child.exitCode ?? child.signalCode}):\n${tail(SERVER_LOG)}`,
      );
    }
    try {
      const response = await fetch(`${baseUrl}/api/status`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(
    `the server did not answer /api/status within ${START_TIMEOUT_MS} ms:\n${tail(SERVER_LOG)}`,
  );
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Builds once if needed, then starts `node apps/server/dist/main.js` (what `npm start` runs) on a
 * free port with a fresh SQLite database, and stops it after the run. The server log is kept in
 * artifacts/e2e-server.log.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  buildIfNeeded();
  mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const mock = await startMockUpstream({ recordLimit: 200 });
  const dataDirectory = mkdtempSync(join(tmpdir(), 'switchyard-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const log = createWriteStream(SERVER_LOG);
  const child = spawn(process.execPath, [SERVER_MAIN], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      SQLITE_PATH: join(dataDirectory, 'switchyard.db'),
      DATA_DIR: dataDirectory,
      SESSION_SECRET: 'e2e-session-secret-0123456789abcdef',
      CRITICAL_RATE_LIMIT: '1000',
      GLOBAL_API_RATE_LIMIT_ENABLE: 'false',
      GLOBAL_WEB_RATE_LIMIT_ENABLE: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);

  const teardown = async () => {
    await stop(child);
    await mock.close();
    log.end();
    rmSync(dataDirectory, { recursive: true, force: true });
  };
  try {
    await waitForStatus(baseUrl, child);
  } catch (error) {
    await teardown();
    throw error;
  }
  project.provide('baseUrl', baseUrl);
  project.provide('mockUrl', mock.url);
  process.env.E2E_BASE_URL = baseUrl;
  return teardown;
}
