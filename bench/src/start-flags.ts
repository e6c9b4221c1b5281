import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The Node flags `npm start` gives the server (the root package.json's start script: `node <flags>
 * apps/server/dist/main.js`), so the bench runs the built server as users run it (ADR-40: a larger
 * young generation). Throws when the script no longer starts the bundle that way: the bench must
 * not quietly measure something else.
 */
export function startScriptNodeFlags(startScript: string): string[] {
  const match = /\bnode((?:\s+--[^\s]+)*)\s+apps\/server\/dist\/main\.js\b/.exec(startScript);
  if (match === null)
    throw new Error(`the start script does not run apps/server/dist/main.js with node: ${startScript}`);
  return match[1]!.split(/\s+/).filter(Boolean);
}

/** The flags of the repository's own start script. */
export function repositoryStartFlags(repositoryRoot: string): string[] {
  const manifest = JSON.parse(readFileSync(join(repositoryRoot, 'package.json'), 'utf8')) as {
    scripts?: { start?: string };
  };
  return startScriptNodeFlags(manifest.scripts?.start ?? '');
}
