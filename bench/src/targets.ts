/**
 * The processes under test: the mock upstream (also the "direct" baseline), the two pass-through
 * floors (the bare proxy, streamed; the pool proxy, buffered), the durable-billing floor, Switchyard (SQLite in a temporary directory, a token and a channel made through the
 * console API) and Portkey's gateway (OpenAI provider with a custom host pointing at the mock).
 * Each runs in its own process; a target that cannot start throws with its output.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchConfig, TargetName } from './bench-config.ts';
import { openBenchDatabase } from './bench-database.ts';
import { freePort, type SpawnedProcess, spawnProcess, waitForHttp } from './processes.ts';
import { repositoryStartFlags } from './start-flags.ts';

export const repositoryRoot = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

export interface Target {
  name: TargetName;
  label: string;
  /** Origin, e.g. http://127.0.0.1:4100 */
  url: string;
  process: SpawnedProcess;
  /** Headers every relay request to this target carries (auth, provider selection). */
  headers: Record<string, string>;
  stop(): Promise<void>;
}

/** Key the mock accepts (any key but `sk-invalid`); gateways without their own auth pass it on. */
const UPSTREAM_KEY = 'sk-bench-upstream';
const json = { 'content-type': 'application/json' };

export const TARGET_LABELS: Record<TargetName, string> = {
  mock: 'mock upstream (direct)',
  bare: 'bare proxy (undici Agent, streamed)',
  switchyard: 'Switchyard',
  portkey: 'Portkey gateway',
  pool: 'pool proxy (undici Pool, buffered)',
  floor: 'durable-billing floor',
};

export async function startMock(cpus: string | null): Promise<Target> {
  const port = await freePort();
  const child = spawnProcess(
    'mock upstream',
    process.execPath,
    ['--import', 'tsx', 'tools/mock-upstream/src/cli.ts', '--port', String(port), '--record-limit', '0'],
    { cwd: repositoryRoot, cpus },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(child, `${url}/__admin/health`, 30_000);
  return {
    name: 'mock',
    label: TARGET_LABELS.mock,
    url,
    process: child,
    headers: { ...json, authorization: `Bearer ${UPSTREAM_KEY}` },
    stop: () => child.stop(),
  };
}

/**
 * Starts one of the bench's plain proxies (`bench/src/<script>`, which answers `health` once it
 * listens) on a free port in front of the mock; `name` labels its process and output.
 */
async function startProxyScript(
  name: string,
  script: string,
  health: string,
  args: readonly string[],
  mockUrl: string,
  cpus: string | null,
  nodeArgs: readonly string[],
): Promise<{ url: string; child: SpawnedProcess }> {
  const port = await freePort();
  const child = spawnProcess(
    name,
    process.execPath,
    [...nodeArgs, `bench/src/${script}`, '--port', String(port), '--upstream', mockUrl, ...args],
    { cwd: repositoryRoot, cpus },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(child, `${url}${health}`, 15_000);
  return { url, child };
}

export async function startBareProxy(
  mockUrl: string,
  cpus: string | null,
  nodeArgs: readonly string[] = [],
): Promise<Target> {
  const { url, child } = await startProxyScript(
    'bare proxy',
    'bare-proxy.mjs',
    '/__bare/health',
    [],
    mockUrl,
    cpus,
    nodeArgs,
  );
  return {
    name: 'bare',
    label: TARGET_LABELS.bare,
    url,
    process: child,
    headers: { ...json, authorization: `Bearer ${UPSTREAM_KEY}` },
    stop: () => child.stop(),
  };
}

/**
 * The buffered floor (pool-proxy.mjs): one undici Pool, request and answer read whole, nothing
 * else. Saturated in the full run's alternated rounds (BENCH_POOL) and by `npm run ab`
 * (`AB_TARGET=pool`).
 */
export async function startPoolProxy(
  mockUrl: string,
  cpus: string | null,
  nodeArgs: readonly string[] = [],
): Promise<Target> {
  const { url, child } = await startProxyScript(
    'pool proxy',
    'pool-proxy.mjs',
    '/__pool/health',
    [],
    mockUrl,
    cpus,
    nodeArgs,
  );
  return {
    name: 'pool',
    label: TARGET_LABELS.pool,
    url,
    process: child,
    headers: { ...json, authorization: `Bearer ${UPSTREAM_KEY}` },
    stop: () => child.stop(),
  };
}

/**
 * The durable-billing floor (ledger-proxy.mjs): the bare proxy plus a key check, the body parsed,
 * a reservation and a settlement with one log row in SQLite per call. Saturated in the full run's
 * alternated rounds (BENCH_FLOOR) and by `npm run ab` (`AB_TARGET=ledger`, `ledger-2` for a log
 * table with two indexes).
 */
export async function startLedgerProxy(
  mockUrl: string,
  cpus: string | null,
  logIndexes: '2' | '7',
  nodeArgs: readonly string[] = [],
): Promise<Target> {
  const key = `sk-ledger-${randomBytes(8).toString('hex')}`;
  const { url, child } = await startProxyScript(
    'ledger proxy',
    'ledger-proxy.mjs',
    '/__ledger/health',
    ['--key', key, '--log-indexes', logIndexes],
    mockUrl,
    cpus,
    nodeArgs,
  );
  return {
    name: 'floor',
    label: TARGET_LABELS.floor,
    url,
    process: child,
    headers: { ...json, authorization: `Bearer ${key}` },
    stop: () => child.stop(),
  };
}

/**
 * The gateway a measuring tool names (`AB_TARGET`, `PROFILE_TARGET`): `bare` the bare proxy,
 * `pool` the pool proxy, `ledger` / `ledger-2` the durable-billing floor (seven or two log indexes), anything else
 * Switchyard.
 */
export function startNamedTarget(
  kind: string | undefined,
  config: BenchConfig,
  mockUrl: string,
  cpus: string | null,
  nodeArgs: readonly string[] = [],
): Promise<Target> {
  if (kind === 'bare') return startBareProxy(mockUrl, cpus, nodeArgs);
  if (kind === 'pool') return startPoolProxy(mockUrl, cpus, nodeArgs);
  if (kind === 'ledger' || kind === 'ledger-2') {
    return startLedgerProxy(mockUrl, cpus, kind === 'ledger' ? '7' : '2', nodeArgs);
  }
  return startSwitchyard(config, mockUrl, cpus, [...nodeArgs]);
}

/**
 * Starts an A/B variant's gateway (`npm run ab`, `npm run ab:concurrent`): `env` holds its
 * settings (`AB_TARGET` names the gateway). Children inherit process.env, so the settings are set
 * for the start and then undone.
 */
export async function startVariantTarget(
  env: Readonly<Record<string, string>>,
  config: BenchConfig,
  mockUrl: string,
  cpus: string | null,
  nodeArgs: readonly string[] = [],
): Promise<Target> {
  const saved = Object.keys(env).map((key) => [key, process.env[key]] as const);
  Object.assign(process.env, env);
  try {
    return await startNamedTarget(env.AB_TARGET, config, mockUrl, cpus, nodeArgs);
  } finally {
    for (const [key, value] of saved) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}

/** Builds apps/server/dist/main.js (esbuild) unless told not to; fails loudly. */
export function buildSwitchyard(config: BenchConfig): void {
  if (config.switchyardMode !== 'dist') return;
  const bundle = join(repositoryRoot, 'apps/server/dist/main.js');
  if (config.skipBuild && existsSync(bundle)) return;
  const result = spawnSync('npm', ['run', 'build', '--silent', '-w', '@switchyard/server'], {
    cwd: repositoryRoot,
    encoding: 'utf8',
  });
  if (result.status !== 0) {
    throw new Error(
      `building Switchyard failed (exit ${result.status}):\n${result.stdout}\n${result.stderr}`,
    );
  }
}

async function consoleCall(
  url: string,
  path: string,
  body: unknown,
  session: { cookie: string; userId: number } | null,
  method = 'POST',
): Promise<{ data: unknown; cookie: string | null }> {
  const headers: Record<string, string> = { ...json };
  if (session) {
    headers.cookie = session.cookie;
    headers['new-api-user'] = String(session.userId);
  }
  const response = await fetch(`${url}${path}`, { method, headers, body: JSON.stringify(body) });
  const text = await response.text();
  let envelope: { success?: boolean; message?: string; data?: unknown };
  try {
    envelope = JSON.parse(text);
  } catch {
    throw new Error(`${method} ${path}: HTTP ${response.status}, not JSON: ${text.slice(0, 200)}`);
  }
  if (!envelope.success) throw new Error(`${method} ${path}: ${envelope.message ?? text.slice(0, 200)}`);
  return { data: envelope.data, cookie: response.headers.get('set-cookie') };
}

/** Logs in as root, raises root's quota for a long run, creates a channel to the mock and a token. */
export async function setUpSwitchyard(url: string, mockUrl: string): Promise<string> {
  const login = await consoleCall(url, '/api/user/login', { username: 'root', password: '123456' }, null);
  const userId = (login.data as { id: number }).id;
  const cookie = (login.cookie ?? '').split(';')[0] ?? '';
  if (!cookie) throw new Error('login returned no session cookie');
  const session = { cookie, userId };
  await consoleCall(url, '/api/user/', { id: userId, quota: 1_000_000_000_000 }, session, 'PUT');
  await consoleCall(
    url,
    '/api/channel/',
    {
      name: 'mock upstream',
      type: 1,
      key: UPSTREAM_KEY,
      base_url: mockUrl,
      models: 'gpt-4o-mini,text-embedding-3-small',
      group: 'default',
      priority: 0,
      weight: 0,
      model_mapping: '',
      status_code_mapping: '',
    },
    session,
  );
  const token = await consoleCall(
    url,
    '/api/token/',
    { name: 'bench', remain_quota: 0, unlimited_quota: true, expired_time: -1 },
    session,
  );
  const key = (token.data as { key: string }[])[0]?.key;
  if (!key) throw new Error('token creation returned no key');
  return key.startsWith('sk-') ? key : `sk-${key}`;
}

export async function startSwitchyard(
  config: BenchConfig,
  mockUrl: string,
  cpus: string | null,
  /** Extra Node flags (the profiler passes `--cpu-prof`...). */
  nodeArgs: string[] = [],
): Promise<Target> {
  const port = await freePort();
  const dataDirectory = mkdtempSync(join(tmpdir(), 'switchyard-bench-'));
  const database = await openBenchDatabase({
    database: config.database,
    redis: config.redis,
    adminUrl: config.database === 'mysql' ? config.mysqlAdminUrl : config.postgresAdminUrl,
    redisUrl: config.redisUrl,
  });
  const args = [
    // The built bundle runs with `npm start`'s flags, as users run it; the sources without them.
    ...(config.switchyardMode === 'dist' ? repositoryStartFlags(repositoryRoot) : []),
    ...config.switchyardNodeArgs,
    ...nodeArgs,
    // `npm run ab` variants: Node or V8 flags for this start only (NODE_OPTIONS refuses most V8 flags).
    ...(process.env.AB_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
    ...(config.switchyardMode === 'dist'
      ? [process.env.BENCH_SWITCHYARD_MAIN || 'apps/server/dist/main.js']
      : ['--conditions=source', '--import', 'tsx', 'apps/server/src/main.ts']),
  ];
  const child = spawnProcess('Switchyard', process.execPath, args, {
    cwd: repositoryRoot,
    cpus,
    env: {
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      SQLITE_PATH: join(dataDirectory, 'switchyard.db'),
      DATA_DIR: dataDirectory,
      SESSION_SECRET: randomBytes(24).toString('base64url'),
      GLOBAL_API_RATE_LIMIT_ENABLE: 'false',
      LOG_LEVEL: 'warn',
      // The embedded default, whatever the caller's shell has set.
      SQL_DSN: '',
      LOG_SQL_DSN: '',
      REDIS_CONN_STRING: '',
      ...database.env,
    },
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    await child.stop();
    rmSync(dataDirectory, { recursive: true, force: true });
    await database.drop();
  };
  try {
    await waitForHttp(child, `${url}/api/status`, 60_000);
    const key = await setUpSwitchyard(url, mockUrl);
    return {
      name: 'switchyard',
      label: `${TARGET_LABELS.switchyard} (${config.switchyardMode === 'dist' ? 'dist bundle' : 'tsx source'}, ${database.description})`,
      url,
      process: child,
      headers: { ...json, authorization: `Bearer ${key}` },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

const portkeyEntry = join(repositoryRoot, 'node_modules/@portkey-ai/gateway/build/start-server.js');

/** Fails before anything is measured when Portkey's gateway is not installed. */
export function checkPortkeyInstalled(): void {
  if (!existsSync(portkeyEntry)) {
    throw new Error(`Portkey's gateway is not installed (${portkeyEntry}); run npm install at the root`);
  }
}

export async function startPortkey(mockUrl: string, cpus: string | null): Promise<Target> {
  const port = await freePort();
  checkPortkeyInstalled();
  const entry = portkeyEntry;
  const child = spawnProcess('Portkey gateway', process.execPath, [entry, `--port=${port}`, '--headless'], {
    cwd: repositoryRoot,
    cpus,
    env: { NODE_ENV: 'production' },
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(child, `${url}/`, 30_000);
  return {
    name: 'portkey',
    label: TARGET_LABELS.portkey,
    url,
    process: child,
    headers: {
      ...json,
      authorization: `Bearer ${UPSTREAM_KEY}`,
      'x-portkey-provider': 'openai',
      'x-portkey-custom-host': `${mockUrl}/v1`,
    },
    stop: () => child.stop(),
  };
}

/** Checks that a target relays chat, streamed chat and embeddings to the mock before it is measured. */
export async function probeTarget(
  target: Target,
  bodies: { chat: string; stream: string; embeddings: string },
) {
  const post = async (path: string, body: string, expect: string) => {
    let last = '';
    for (let attempt = 0; attempt < 20; attempt++) {
      try {
        const response = await fetch(`${target.url}${path}`, {
          method: 'POST',
          headers: target.headers,
          body,
          signal: AbortSignal.timeout(10_000),
        });
        const text = await response.text();
        if (response.status === 200 && text.includes(expect)) return;
        last = `HTTP ${response.status}: ${text.slice(0, 300)}`;
      } catch (error) {
        last = error instanceof Error ? error.message : String(error);
      }
      await new Promise((resolve) => setTimeout(resolve, 250)); // e.g. a channel index still rebuilding
    }
    throw new Error(`${target.label} does not relay ${path} (${last}):\n${target.process.output()}`);
  };
  await post('/v1/chat/completions', bodies.chat, 'Hello from mock');
  await post('/v1/chat/completions', bodies.stream, 'data: [DONE]');
  await post('/v1/embeddings', bodies.embeddings, '"embedding"');
}
