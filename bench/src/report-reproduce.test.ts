import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PLAIN_TOOLS, reproduceSection } from './report-reproduce.ts';
import { repositoryStartFlags } from './start-flags.ts';
import { repositoryRoot } from './targets.ts';

describe('how to reproduce with plain tools', () => {
  it('pins each gateway to CPU 1 and the upstream and autocannon to CPU 0', () => {
    for (const script of ['pool-proxy.mjs', 'bare-proxy.mjs']) {
      expect(PLAIN_TOOLS).toContain(`taskset -c 1 node bench/src/${script}`);
    }
    expect(PLAIN_TOOLS).toContain('taskset -c 0 node --import tsx tools/mock-upstream/src/cli.ts');
    expect(PLAIN_TOOLS).toContain('taskset -c 0 npx autocannon -c 50 -d "$2"');
  });

  it('runs Switchyard with the flags npm start gives it', () => {
    const flags = repositoryStartFlags(repositoryRoot);
    expect(PLAIN_TOOLS).toContain(`taskset -c 1 node ${flags.join(' ')} apps/server/dist/main.js`);
  });

  it('is the same in bench/README.md as on the page', () => {
    const readme = readFileSync(join(repositoryRoot, 'bench/README.md'), 'utf8');
    expect(readme).toContain(PLAIN_TOOLS.replace('### With plain tools', '## Reproducing with plain tools'));
    expect(reproduceSection()).toContain(PLAIN_TOOLS);
  });
});
