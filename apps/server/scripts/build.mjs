// Bundles the server (and the workspace packages it imports) into dist/main.js, or into the file
// given as the first argument (the server tests' global setup builds its own); npm packages stay
// external, resolved from node_modules above the output file.

import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'esbuild';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const root = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'));
const external = Object.keys(manifest.dependencies).filter((name) => !name.startsWith('@switchyard/'));

await build({
  entryPoints: [new URL('../src/main.ts', import.meta.url).pathname],
  outfile: process.argv[2] ? resolve(process.argv[2]) : new URL('../dist/main.js', import.meta.url).pathname,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  conditions: ['source'],
  external,
  define: { 'process.env.SWITCHYARD_VERSION': JSON.stringify(root.version) },
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
