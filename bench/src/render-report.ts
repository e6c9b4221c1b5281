/**
 * Re-renders a report from a run's raw results without running anything:
 * `node --import tsx bench/src/render-report.ts [bench/results/latest.json] [docs/benchmarks.md]`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderReport } from './bench-report.ts';
import type { BenchRun } from './bench-results.ts';
import { repositoryRoot } from './targets.ts';

const input = resolve(process.argv[2] ?? join(repositoryRoot, 'bench/results/latest.json'));
const output = resolve(process.argv[3] ?? join(repositoryRoot, 'docs/benchmarks.md'));
const run = JSON.parse(readFileSync(input, 'utf8')) as BenchRun;
writeFileSync(output, renderReport(run));
process.stdout.write(`wrote ${output}\n`);
