/** Report sections beside the load tables: the sensitive-word micro-benchmark and the analysis. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BenchRun } from './bench-results.ts';
import { repositoryRoot } from './targets.ts';

const us = (value: number) => `${value.toFixed(0)} µs`;

/** The sensitive-word check's line for the targets table: [target, this run, verdict]. */
export function sensitiveWordsTargetRow(run: BenchRun): string[] {
  const result = run.sensitiveWords;
  if (!result)
    return ['Sensitive-word check (10,000 words, 4 kB prompt) well under 1 ms', '—', 'not measured'];
  return [
    `Sensitive-word check (${result.words.toLocaleString('en-US')} words, ${(result.promptBytes / 1024).toFixed(0)} kB prompt) well under 1 ms`,
    `p50 ${us(result.cleanP50Us)}, p99 ${us(result.cleanP99Us)}`,
    result.cleanP50Us < 250 ? 'met' : 'missed',
  ];
}

export function sensitiveWordsSection(run: BenchRun): string | null {
  const result = run.sensitiveWords;
  if (!result) return null;
  return `## Sensitive-word check

The content policy's Aho–Corasick matcher (\`apps/server/src/content-policy\`) with
${result.words.toLocaleString('en-US')} words (60% Chinese of 2–4 characters, 40% English of 4–10 letters, seeded) over a
${result.promptBytes.toLocaleString('en-US')}-byte prompt of mixed English and Chinese sentences: the time one relay call spends
on the check when \`CheckSensitiveEnabled\` and \`CheckSensitiveOnPromptEnabled\` are on
(\`bench/src/micro/sensitive-words-bench.ts\`, run pinned like the gateways, 2,000 timed scans after a warm-up).
Building the matcher happens once per change of the word list.

| prompt                        |                     p50 |                     p99 |
| ----------------------------- | ----------------------: | ----------------------: |
| no listed word (full scan)    | ${us(result.cleanP50Us).padStart(23)} | ${us(result.cleanP99Us).padStart(23)} |
| two listed words near the end | ${us(result.hitP50Us).padStart(23)} | ${us(result.hitP99Us).padStart(23)} |

Building the matcher for ${result.words.toLocaleString('en-US')} words: ${result.buildMs.toFixed(0)} ms.`;
}

/**
 * The hand-written analysis of the latest run (what changed, what still misses and why), kept in
 * bench/analysis.md so regenerating this page keeps it.
 */
export function analysisSection(run: BenchRun): string | null {
  // The written analysis of the default run (SQLite) is bench/analysis.md; a variant has its own
  // (bench/analysis-postgres-redis.md and the like), or none.
  const database = run.config.database ?? 'sqlite';
  const variant =
    database !== 'sqlite' || run.config.redis ? `-${database}${run.config.redis ? '-redis' : ''}` : '';
  const file = join(repositoryRoot, `bench/analysis${variant}.md`);
  if (!existsSync(file)) return null;
  const text = readFileSync(file, 'utf8').trim();
  return text === '' ? null : text;
}

/** The database work of one relay call beside Switchyard's measured CPU per request. */
export function billingSection(run: BenchRun): string | null {
  const result = run.billing;
  if (!result) return null;
  const saturation = run.targets.find((target) => target.name === 'switchyard')?.saturation;
  const perRequest =
    saturation && saturation.load.ok > 0 ? (saturation.cpuMs * 1000) / saturation.load.ok : Number.NaN;
  const share = (value: number) =>
    Number.isFinite(perRequest) ? `${((value * 100) / perRequest).toFixed(0)}%` : '—';
  const row = (name: string, value: number) => `| ${name} | ${value.toFixed(0)} | ${share(value)} |`;
  return `## Database work per relay call

What one relay call asks of SQLite, measured without HTTP (\`bench/src/micro/billing-bench.ts\`,
${result.calls.toLocaleString('en-US')} calls after a warm-up, CPU time of the process, pinned like the gateways): Switchyard's own
\`BillingService\` and \`LogRepository\`, then the same statements prepared once without the query
builder, then the least a ledger could write (one conditional write for the reservation, one at
settlement, counters batched per 200 calls; no ledger row). One call at a time pays a commit for
its reservation and one for its settlement; with eight calls in flight they share the group
commit's transactions (ADR-21), as under load. The share is of Switchyard's CPU per
request at saturation in this run (${Number.isFinite(perRequest) ? `${perRequest.toFixed(0)} µs` : 'not measured'}).

| work per relay call | CPU µs | share of Switchyard's CPU/request |
| --- | ---: | ---: |
${row('reserve (BillingService.reserve: ledger row + conditional decrements, one call alone in its commit)', result.reserveUs)}
${
  result.logRowUs > 0
    ? `${row('settle (BillingService.settle, in place: ledger row deleted, balance and counters moved, log row to the log journal)', result.settleUs)}
${row('settlement writer share (the log journal moved into logs every 50 calls)', result.logRowUs)}`
    : row(
        'settle (BillingService.settle: ledger row deleted, balance moved to the cost, consume log row and counters written in the same commit)',
        result.settleUs,
      )
}
${row('**total, one call at a time**', result.totalUs)}
${
  result.groupedUs !== undefined
    ? row(
        '**total with 8 calls in flight** (they share the group commit, as under load; settlements write their log rows in place through the log journal, whose move into logs is counted, ADR-24 and ADR-35)',
        result.groupedUs,
      )
    : ''
}
${row('same reserve + settle statements, prepared, no query builder', result.preparedSameStatementsUs)}
${row('one write to reserve, one to settle, counters batched', result.oneWriteEachBatchedUs)}`;
}
