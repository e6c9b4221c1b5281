// `npm run typecheck`: every workspace's own typecheck script, two at a time. tsc uses one core,
// and each workspace is a program of its own (it reads the packages it imports from source), so
// on a machine with two cores two run side by side in the time of one. The applications start
// first: they take longest. Each workspace's output is printed whole when it ends; any failure
// fails the run.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const PARALLEL = 2;
const root = JSON.parse(readFileSync('package.json', 'utf8'));

const directories = root.workspaces.flatMap((pattern) =>
  pattern.endsWith('/*')
    ? readdirSync(pattern.slice(0, -2), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => join(pattern.slice(0, -2), entry.name))
    : [pattern],
);
const workspaces = directories
  .filter((directory) => existsSync(join(directory, 'package.json')))
  .filter((directory) => JSON.parse(readFileSync(join(directory, 'package.json'), 'utf8')).scripts?.typecheck)
  .sort((a, b) => Number(b.startsWith('apps/')) - Number(a.startsWith('apps/')));

const run = (directory) =>
  new Promise((resolve) => {
    const child = spawn('npm', ['run', 'typecheck', '--silent'], { cwd: directory });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => {
      process.stdout.write(
        `\n> typecheck ${directory}: ${code === 0 ? 'ok' : `failed (${code})`}\n${output}`,
      );
      resolve(code === 0);
    });
  });

const queue = [...workspaces];
const results = await Promise.all(
  Array.from({ length: PARALLEL }, async () => {
    let ok = true;
    while (queue.length > 0) ok = (await run(queue.shift())) && ok;
    return ok;
  }),
);
process.exit(results.every(Boolean) ? 0 : 1);
