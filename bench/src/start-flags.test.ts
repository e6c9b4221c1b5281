import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repositoryStartFlags, startScriptNodeFlags } from './start-flags.ts';

describe('startScriptNodeFlags', () => {
  it('reads the Node flags before the bundle, none when there are none', () => {
    expect(startScriptNodeFlags('npm run build --silent && node --a=1 --b apps/server/dist/main.js')).toEqual(
      ['--a=1', '--b'],
    );
    expect(startScriptNodeFlags('node apps/server/dist/main.js')).toEqual([]);
  });

  it('refuses a start script that does not run the bundle with node', () => {
    expect(() => startScriptNodeFlags('tsx apps/server/src/main.ts')).toThrow(/does not run/);
  });

  it("gives the repository's start script's young-generation size (ADR-40)", () => {
    const root = fileURLToPath(new URL('../..', import.meta.url));
    expect(repositoryStartFlags(root)).toEqual(['--max-semi-space-size=32']);
  });
});
