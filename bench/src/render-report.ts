/**
 * Re-renders a report from a run's raw results without running anything:
 * `node --import tsx bench/src/render-report.ts [bench/results/latest.json] [output]` (by default
 * the page the run wrote: docs/benchmarks.md, docs/benchmarks-postgres-redis.md...).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderReport } from './bench-report.ts';
import type { BenchRun } from './bench-results.ts';
import { repositoryRoot } from './targets.ts';

const input = resolve(process.argv[2] ?? join(repositoryRoot, 'bench/results/latest.json'));
const run = JSON.parse(readFileSync(input, 'utf8')) as BenchRun;
// By default the page the run itself wrote: a PostgreSQL + Redis run never overwrites the SQLite one.
const output = resolve(
  process.argv[3] ?? join(repositoryRoot, run.config.outputPath ?? 'bench/results/rendered.md'),
);
writeFileSync(output, renderReport(run));
process.stdout.write(`wrote ${output}\n`);
