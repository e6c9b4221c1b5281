import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The server bundle built from the sources of this run (`server-bundle.ts`). */
    serverBundle: string;
  }
}

const SERVER_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Global setup of the server projects: bundles the server once from the current sources, as
 * `npm run build` does, for the tests that start it as a process. Each run builds into a
 * directory of its own beside `dist` (so concurrent runs and `npm run build` never replace a
 * bundle a test is starting, and a bundle is never older than the sources), removed afterwards.
 */
export default function setup(project: TestProject): () => void {
  const directory = mkdtempSync(join(SERVER_DIR, '.test-bundle-'));
  const bundle = join(directory, 'main.js');
  const result = spawnSync(process.execPath, ['scripts/build.mjs', bundle], {
    cwd: SERVER_DIR,
    encoding: 'utf8',
  });
  if (result.status !== 0 || !existsSync(bundle)) {
    rmSync(directory, { recursive: true, force: true });
    throw new Error(
      `could not bundle the server for the tests (exit ${result.status ?? result.signal}):\n${result.stderr}`,
    );
  }
  project.provide('serverBundle', bundle);
  return () => rmSync(directory, { recursive: true, force: true });
}
