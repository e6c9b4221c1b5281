/**
 * Builds new-api's own web console (the reference, v0.4.8.9.1) to check Switchyard with it (not a
 * test; run by hand, docs/console-wire.md "Checking against the reference console"):
 *   node --import tsx apps/server/test/support/reference-console.ts --git-dir <new-api repo> [--ref v0.4.8.9.1] [--out <dir>]
 *   node --import tsx apps/server/test/support/reference-console.ts --source <new-api checkout>/web [--out <dir>]
 * then start Switchyard with `WEB_DIST_DIR=<out>/dist`, which serves that console on its own port
 * (same origin, so its `/api` calls reach Switchyard). Without `--out` the build goes to
 * `<tmpdir>/newapi-console-<ref>`. The console's source is read from the given repository or
 * folder, never kept in this project. It needs the npm registry; its GitHub-only dependency `sse`
 * (mpetazzoni/sse.js) is installed as the npm package `sse.js` of the same version.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

/** The npm package and version standing in for the console's `"sse": "github:mpetazzoni/sse.js"`. */
const SSE_FROM_NPM = 'npm:sse.js@2.5.0';

const { values } = parseArgs({
  options: {
    'git-dir': { type: 'string' },
    ref: { type: 'string', default: 'v0.4.8.9.1' },
    source: { type: 'string' },
    out: { type: 'string' },
  },
});
const ref = values.ref ?? 'v0.4.8.9.1';
const out = resolve(values.out ?? join(tmpdir(), `newapi-console-${ref}`));
if (!values['git-dir'] && !values.source) {
  throw new Error('give --git-dir <new-api repository> or --source <new-api web folder>');
}

const run = (command: string, args: string[], cwd: string) => {
  console.log(`$ ${command} ${args.join(' ')}`);
  execFileSync(command, args, { cwd, stdio: 'inherit' });
};

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
if (values.source) {
  cpSync(resolve(values.source), out, {
    recursive: true,
    filter: (path) => !/[\\/](node_modules|dist)$/.test(path),
  });
} else {
  // `git archive <ref> web` | tar, without a shell: the archive is written to a file first.
  const archive = join(out, '..', `newapi-console-${process.pid}.tar`);
  run('git', ['--git-dir', resolve(values['git-dir']!), 'archive', '-o', archive, ref, 'web'], out);
  run('tar', ['-x', '-f', archive, '--strip-components=1', '-C', out], out);
  rmSync(archive);
}
if (!existsSync(join(out, 'package.json')))
  throw new Error(`no package.json in ${out}: not new-api's web folder`);

// The lockfiles pin the GitHub tarball; npm resolves the rest from the registry.
for (const lockfile of ['bun.lockb', 'pnpm-lock.yaml', 'package-lock.json'])
  rmSync(join(out, lockfile), { force: true });
const manifestPath = join(out, 'package.json');
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
if (manifest.dependencies?.sse) {
  console.log(`sse: ${manifest.dependencies.sse} → ${SSE_FROM_NPM}`);
  manifest.dependencies.sse = SSE_FROM_NPM;
}
writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);

run('npm', ['install', '--no-audit', '--no-fund'], out);
run('npx', ['vite', 'build'], out);
console.log(`\nnew-api's console (${values.source ? values.source : ref}) is built in ${join(out, 'dist')}.`);
console.log(`Serve it with Switchyard: WEB_DIST_DIR=${join(out, 'dist')} npm start`);
