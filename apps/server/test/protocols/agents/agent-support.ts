import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { RecordedRequest } from '@switchyard/mock-upstream';
import { expect } from 'vitest';
import { computeQuota } from '../../../src/billing/pricing/compute-quota.ts';
import {
  DEFAULT_CACHE_RATIO,
  DEFAULT_COMPLETION_RATIO,
  DEFAULT_MODEL_PRICE,
  DEFAULT_MODEL_RATIO,
} from '../../../src/billing/pricing/default-ratios.ts';
import { lookUpPrice } from '../../../src/billing/pricing/price-book.ts';
import {
  createChannel,
  createToken,
  type RelayFixture,
  settledLogs,
  startRelayFixture,
  userBalance,
} from '../../relay/relay-support.ts';
import { modelCallsSince } from './tool-results.ts';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../..');

/** The installed agent CLIs (devDependencies of @switchyard/server, pinned). */
export type AgentName = 'claude' | 'codex' | 'gemini';

/** The path of an agent CLI; throws when it is not installed (the tests never skip). */
export function agentBinary(name: AgentName): string {
  const path = join(REPO_ROOT, 'node_modules', '.bin', name);
  if (!existsSync(path)) {
    throw new Error(
      `the ${name} CLI is not installed at ${path}: run npm install (a devDependency of apps/server)`,
    );
  }
  return path;
}

/** Models served by the three channels, each priced by the default catalogue. */
export const AGENT_MODELS = {
  anthropic: 'claude-sonnet-4-5-20250929',
  openai: 'gpt-5-codex',
  gemini: 'gemini-2.5-flash',
} as const;

/** The model Claude Code 2.1.332 asks for when given none; the Anthropic channel serves it too. */
export const CLAUDE_CODE_DEFAULT_MODEL = 'claude-opus-5-5';

/** Embedding models the OpenAI and Gemini channels serve besides. */
export const EMBEDDING_MODELS = { openai: 'text-embedding-3-small', gemini: 'gemini-embedding-001' } as const;

export type AgentChannelKind = keyof typeof AGENT_MODELS;

/** The gateway the agents talk to: a real port, the mock as one channel of each type, a token. */
export interface AgentGateway {
  f: RelayFixture;
  key: string;
  channelIds: Record<AgentChannelKind, number>;
  /** Where the agents' proxy variables point: every request sent there is refused and recorded. */
  trap: NetworkTrap;
  close(): Promise<void>;
}

/** A local HTTP proxy that refuses everything and records what was asked of it. */
export interface NetworkTrap {
  url: string;
  /** `CONNECT host:port` or `METHOD url`, in arrival order. */
  attempts: string[];
  close(): Promise<void>;
}

async function startNetworkTrap(): Promise<NetworkTrap> {
  const attempts: string[] = [];
  const server = createServer((request, response) => {
    attempts.push(`${request.method} ${request.url}`);
    response.writeHead(403).end();
  });
  server.on('connect', (request, socket) => {
    attempts.push(`CONNECT ${request.url}`);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    attempts,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}

const CHANNEL_TYPES: Record<AgentChannelKind, number> = { openai: 1, anthropic: 14, gemini: 24 };

/** Starts the gateway with no ModelRatio set: the default catalogue prices every model used. */
export async function startAgentGateway(): Promise<AgentGateway> {
  const f = await startRelayFixture();
  const channelIds = {} as Record<AgentChannelKind, number>;
  for (const kind of Object.keys(AGENT_MODELS) as AgentChannelKind[]) {
    const models = [
      AGENT_MODELS[kind],
      kind === 'anthropic' ? CLAUDE_CODE_DEFAULT_MODEL : EMBEDDING_MODELS[kind],
    ];
    channelIds[kind] = await createChannel(f, {
      name: kind,
      type: CHANNEL_TYPES[kind],
      models: models.join(','),
    });
  }
  const { key } = await createToken(f.root, { name: 'agent' });
  const trap = await startNetworkTrap();
  return {
    f,
    key,
    channelIds,
    trap,
    close: async () => {
      await trap.close();
      await f.close();
    },
  };
}

/**
 * A throwaway HOME and working directory for one agent run. The working directory holds
 * `mock/mock` (a file the mock's placeholder Glob/read arguments find) and `bin/mock`, an
 * executable on PATH that prints TOOL_OUTPUT (the mock's placeholder shell command is `mock`).
 */
export interface AgentWorkspace {
  home: string;
  cwd: string;
  bin: string;
  remove(): void;
}

export const TOOL_OUTPUT = 'the mock tool ran on this machine';

export function createAgentWorkspace(): AgentWorkspace {
  const root = mkdtempSync(join(tmpdir(), 'switchyard-agent-'));
  const home = join(root, 'home');
  const cwd = join(root, 'work');
  const bin = join(root, 'bin');
  for (const dir of [home, cwd, bin, join(cwd, 'mock')]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(cwd, 'mock', 'mock'), `${TOOL_OUTPUT}\n`);
  writeFileSync(join(bin, 'mock'), `#!/bin/sh\necho '${TOOL_OUTPUT}'\n`);
  chmodSync(join(bin, 'mock'), 0o755);
  return { home, cwd, bin, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/**
 * The environment of an agent run: nothing inherited but PATH, a private HOME, and every
 * proxy variable pointing at the gateway's network trap, so anything but the gateway (listed in
 * NO_PROXY) is refused and recorded instead of leaving the machine. Each CLI's own switches for
 * telemetry, updates and error reports are added by its test.
 */
export function confinedEnv(
  gateway: AgentGateway,
  workspace: AgentWorkspace,
  extra: Record<string, string>,
): Record<string, string> {
  const trapProxy = gateway.trap.url;
  return {
    PATH: `${workspace.bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: workspace.home,
    XDG_CONFIG_HOME: join(workspace.home, '.config'),
    XDG_CACHE_HOME: join(workspace.home, '.cache'),
    XDG_DATA_HOME: join(workspace.home, '.local', 'share'),
    TMPDIR: tmpdir(),
    LANG: 'C.UTF-8',
    TERM: 'dumb',
    NO_COLOR: '1',
    CI: '1',
    HTTP_PROXY: trapProxy,
    HTTPS_PROXY: trapProxy,
    http_proxy: trapProxy,
    https_proxy: trapProxy,
    ALL_PROXY: trapProxy,
    NO_PROXY: '127.0.0.1,localhost',
    no_proxy: '127.0.0.1,localhost',
    ...extra,
  };
}

export interface AgentRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs an agent CLI to its end (stdin closed), killing it after `timeoutMs`. */
export function runAgent(
  name: AgentName,
  args: readonly string[],
  options: { cwd: string; env: Record<string, string>; timeoutMs?: number },
): Promise<AgentRun> {
  const child = spawn(agentBinary(name), args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolveRun, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`${name} ran over ${options.timeoutMs ?? 60_000} ms\nstdout: ${stdout}\nstderr: ${stderr}`),
      );
    }, options.timeoutMs ?? 60_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      resolveRun({ code, stdout, stderr });
    });
  });
}

/** Fails with the agent's whole output unless it exited 0. */
export function expectSuccess(run: AgentRun): void {
  if (run.code !== 0)
    throw new Error(`agent exited ${run.code}\nstdout: ${run.stdout}\nstderr: ${run.stderr}`);
}

/** Token totals an agent reports for its run (what the gateway answered it). */
export interface ReportedUsage {
  calls: number;
  prompt: number;
  completion: number;
}

/** The quota a log row's tokens cost at the default catalogue's prices (group ratio 1). */
export function catalogueQuota(
  model: string,
  row: { prompt_tokens: number; completion_tokens: number; other: string | null },
) {
  const price = lookUpPrice(
    {
      modelRatio: DEFAULT_MODEL_RATIO,
      modelPrice: DEFAULT_MODEL_PRICE,
      completionRatio: DEFAULT_COMPLETION_RATIO,
      cacheRatio: DEFAULT_CACHE_RATIO,
      groupRatio: { default: 1 },
    },
    model,
    'default',
    false,
  );
  if (!price) throw new Error(`${model} is not priced by the catalogue`);
  const other = JSON.parse(row.other ?? '{}') as { cache_tokens?: number; cache_creation_tokens?: number };
  return computeQuota(
    price,
    {
      promptTokens: row.prompt_tokens,
      completionTokens: row.completion_tokens,
      cachedTokens: other.cache_tokens ?? 0,
      cacheWriteTokens: other.cache_creation_tokens ?? 0,
    },
    500_000,
  );
}

/**
 * Runs `call` and checks the consume logs it left: one row per model call the mock received,
 * each for `model` on its channel, tokens adding up to what the agent reported, each row's quota
 * the catalogue's price of its tokens, and the user's balance moved by exactly their sum.
 * Returns the upstream calls in order.
 */
export async function expectAgentBilled(
  gateway: AgentGateway,
  expected: { model: string; channel: AgentChannelKind },
  call: () => Promise<ReportedUsage>,
): Promise<RecordedRequest[]> {
  const { f } = gateway;
  const before = await userBalance(f, 1);
  const seen = (await settledLogs(f)).length;
  const upstreamBefore = f.mock.requests.length;
  const reported = await call();
  const rows = (await settledLogs(f)).slice(seen);
  const upstream = modelCallsSince(f.mock.requests, upstreamBefore);
  expect(rows).toHaveLength(upstream.length);
  for (const row of rows) {
    expect(row).toMatchObject({
      model_name: expected.model,
      channel_id: gateway.channelIds[expected.channel],
    });
    expect(row.quota).toBe(catalogueQuota(expected.model, row));
  }
  expect({
    calls: rows.length,
    prompt: rows.reduce((sum, row) => sum + row.prompt_tokens, 0),
    completion: rows.reduce((sum, row) => sum + row.completion_tokens, 0),
  }).toEqual(reported);
  const after = await userBalance(f, 1);
  const total = rows.reduce((sum, row) => sum + row.quota, 0);
  expect(total).toBeGreaterThan(0);
  expect(before.quota - after.quota).toBe(total);
  return upstream;
}
