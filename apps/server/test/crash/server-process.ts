import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DatabaseTarget } from '../../src/config/env.ts';
import { serverArguments } from '../support/server-bundle.ts';

/** The server package directory (where `npm run dev` runs). */
const SERVER_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** A free TCP port on 127.0.0.1 (closed again before returning). */
export function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}

export const sleep = (ms: number) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));

/** Polls `check` until it returns a truthy value; throws with `what` after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T> | T,
  timeoutMs = 15_000,
): Promise<T> {
  const start = Date.now();
  let last: unknown;
  while (Date.now() - start < timeoutMs) {
    try {
      const value = await check();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}

/** A real server process (the server bundle, `support/server-bundle.ts`). */
export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Everything the process wrote to stdout and stderr so far (pino JSON lines). */
  output(): string;
  /** Resolves with the exit code (null when killed by a signal) and the signal. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(signal: NodeJS.Signals): void;
}

/** Environment for a spawned server on `target`; `env` adds or overrides variables. */
function serverEnv(target: DatabaseTarget, port: number, dataDir: string, env: Record<string, string>) {
  const database = target.kind === 'sqlite' ? { SQLITE_PATH: target.location } : { SQL_DSN: target.location };
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? tmpdir(),
    TZ: 'UTC',
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    SESSION_SECRET: 'switchyard-crash-test-secret',
    BCRYPT_COST: '4',
    GLOBAL_API_RATE_LIMIT_ENABLE: 'false',
    GLOBAL_WEB_RATE_LIMIT_ENABLE: 'false',
    CRITICAL_RATE_LIMIT: '100000',
    SYNC_FREQUENCY: '600',
    UPDATE_TASK: 'false',
    ...database,
    ...env,
  };
}

/** Spawns the server on `target` and waits until it answers /api/status. */
export async function startServer(
  target: DatabaseTarget,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'switchyard-crash-'));
  const child = spawn(process.execPath, serverArguments(), {
    cwd: SERVER_DIR,
    env: serverEnv(target, port, dataDir, env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) => {
    child.once('exit', (code, signal) => {
      rmSync(dataDir, { recursive: true, force: true });
      resolveExit({ code, signal });
    });
  });
  let gone = false;
  void exited.then(() => {
    gone = true;
  });
  const server: ServerProcess = {
    child,
    baseUrl: `http://127.0.0.1:${port}`,
    output: () => output,
    exited,
    kill: (signal) => {
      if (!gone) child.kill(signal);
    },
  };
  try {
    await eventually(
      'the server to answer /api/status',
      async () => {
        if (gone) throw new Error(`server exited during start-up:\n${output}`);
        const response = await fetch(`${server.baseUrl}/api/status`);
        return response.status === 200;
      },
      45_000,
    );
  } catch (error) {
    server.kill('SIGKILL');
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${output.slice(-4000)}`);
  }
  return server;
}

/** Stops a server that may still run (SIGKILL), waiting for the process to be gone. */
export async function stopServer(server: ServerProcess | undefined): Promise<void> {
  if (!server) return;
  server.kill('SIGKILL');
  await server.exited;
}

/** Pino lines of the process output whose `msg` contains `text`. */
export function logLines(server: ServerProcess, text: string): Array<Record<string, unknown>> {
  return server
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        return {};
      }
    })
    .filter((entry) => typeof entry.msg === 'string' && entry.msg.includes(text));
}
