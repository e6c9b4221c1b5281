/** What the report says about the machine and the software measured. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, release, totalmem } from 'node:os';
import { join } from 'node:path';
import type { BenchConfig } from './bench-config.ts';
import { repositoryStartFlags } from './start-flags.ts';
import { repositoryRoot } from './targets.ts';

export interface MachineInfo {
  date: string;
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  kernel: string;
  node: string;
  fileDescriptorLimit: string;
  versions: Record<string, string>;
  commit: string;
  /**
   * The Node flags the built Switchyard ran with (`npm start`'s); absent when the bench ran the
   * sources, and in results written before the report recorded them.
   */
  switchyardNodeFlags?: string[];
}

function packageVersion(path: string): string {
  try {
    return (
      JSON.parse(readFileSync(join(repositoryRoot, path, 'package.json'), 'utf8')) as { version: string }
    ).version;
  } catch {
    return 'not installed';
  }
}

function shell(command: string, args: string[]): string {
  try {
    return execFileSync(command, args, { cwd: repositoryRoot, encoding: 'utf8' }).trim();
  } catch {
    return 'unknown';
  }
}

export function machineInfo(config: Pick<BenchConfig, 'switchyardMode'>): MachineInfo {
  const processors = cpus();
  const dirty = shell('git', ['status', '--porcelain', '--', 'apps/server', 'packages']) !== '';
  return {
    date: new Date().toISOString(),
    cpuModel: processors[0]?.model.trim() ?? 'unknown',
    cores: processors.length,
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    kernel: release(),
    node: process.version,
    fileDescriptorLimit: shell('sh', ['-c', 'ulimit -n']),
    versions: {
      switchyard: packageVersion('apps/server'),
      fastify: packageVersion('node_modules/fastify'),
      undici: packageVersion('node_modules/undici'),
      autocannon: packageVersion('node_modules/autocannon'),
      '@portkey-ai/gateway': packageVersion('node_modules/@portkey-ai/gateway'),
      '@hono/node-server': packageVersion('node_modules/@hono/node-server'),
      hono: packageVersion('node_modules/hono'),
    },
    commit: `${shell('git', ['rev-parse', '--short', 'HEAD'])}${dirty ? ' + uncommitted changes' : ''}`,
    // Only the built bundle is started as `npm start` starts it (targets.ts).
    ...(config.switchyardMode === 'dist' && { switchyardNodeFlags: repositoryStartFlags(repositoryRoot) }),
  };
}
