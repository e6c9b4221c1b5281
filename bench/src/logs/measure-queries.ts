/**
 * Times console requests one at a time against a running server: a few warm-up calls, then up
 * to `samples` timed calls, stopping early (after at least `minSamples`) once a query has used its
 * time budget, so a slow query cannot hold a run for an hour.
 */
import type { Caller, ConsoleQuery } from './console-queries.ts';
import { percentile } from './percentile.ts';

export interface QueryTiming {
  kind: ConsoleQuery['kind'];
  name: string;
  path: string;
  samples: number;
  p50Ms: number;
  p95Ms: number;
  /** `total` of a list answer, or the number of items of an array answer; null otherwise. */
  rows: number | null;
  /** The answer's extra `total_capped` flag, when present. */
  capped?: boolean;
  /** Set when the request failed (HTTP status or `success:false`). */
  error?: string;
}

export interface MeasureOptions {
  warmup: number;
  samples: number;
  minSamples: number;
  budgetMs: number;
}

export const DEFAULT_MEASURE: MeasureOptions = { warmup: 3, samples: 30, minSamples: 5, budgetMs: 20_000 };

type Headers = Record<Caller, Record<string, string>>;

interface Answer {
  success?: boolean;
  message?: string;
  data?: unknown;
}

async function call(
  baseUrl: string,
  query: ConsoleQuery,
  headers: Headers,
): Promise<{ ms: number; answer: Answer; status: number }> {
  const started = performance.now();
  const response = await fetch(`${baseUrl}${query.path}`, { headers: headers[query.caller] });
  const text = await response.text();
  const ms = performance.now() - started;
  let answer: Answer = {};
  try {
    answer = JSON.parse(text) as Answer;
  } catch {
    answer = { success: false, message: text.slice(0, 200) };
  }
  return { ms, answer, status: response.status };
}

function rowsOf(data: unknown): { rows: number | null; capped?: boolean } {
  if (Array.isArray(data)) return { rows: data.length };
  if (data && typeof data === 'object' && 'total' in data) {
    const page = data as { total: number; total_capped?: boolean };
    return {
      rows: Number(page.total),
      ...(page.total_capped !== undefined && { capped: page.total_capped }),
    };
  }
  return { rows: null };
}

export async function measureQuery(
  baseUrl: string,
  query: ConsoleQuery,
  headers: Headers,
  options: MeasureOptions = DEFAULT_MEASURE,
): Promise<QueryTiming> {
  const base = { kind: query.kind, name: query.name, path: query.path };
  const first = await call(baseUrl, query, headers);
  if (first.status !== 200 || first.answer.success === false) {
    return {
      ...base,
      samples: 0,
      p50Ms: Number.NaN,
      p95Ms: Number.NaN,
      rows: null,
      error: `HTTP ${first.status}: ${first.answer.message ?? ''}`,
    };
  }
  const spent = { ms: first.ms };
  for (let i = 1; i < options.warmup && spent.ms < options.budgetMs / 4; i++)
    spent.ms += (await call(baseUrl, query, headers)).ms;
  const times: number[] = [];
  let timedMs = 0;
  while (
    times.length < options.samples &&
    (times.length < options.minSamples || timedMs < options.budgetMs)
  ) {
    const { ms } = await call(baseUrl, query, headers);
    times.push(ms);
    timedMs += ms;
  }
  return {
    ...base,
    samples: times.length,
    p50Ms: percentile(times, 50),
    p95Ms: percentile(times, 95),
    ...rowsOf(first.answer.data),
  };
}
