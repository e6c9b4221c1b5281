import { existsSync } from 'node:fs';
import { inject } from 'vitest';

/**
 * Arguments for `node` that start the server as `npm start` does: the bundle the server projects'
 * global setup built from this run's sources (`server-bundle-setup.ts`). It starts on half the CPU
 * of the sources through tsx, which counts when a test starts several processes.
 */
export function serverArguments(): string[] {
  const bundle = inject('serverBundle');
  if (!bundle || !existsSync(bundle)) {
    throw new Error(
      `no server bundle (${bundle ?? 'none provided'}): the server projects build it in their global setup, test/support/server-bundle-setup.ts`,
    );
  }
  return [bundle];
}
