import type { BenchDatabaseKind } from './bench-database.ts';
/**
 * Benchmark settings, read from the environment once. Every duration is configurable so a smoke
 * run (`BENCH_QUICK=1`, under a minute) and the full run (~6 minutes) use the same code.
 */
import type { Pacer } from './load/load-jobs.ts';

/**
 * `pool` (the buffered floor, pool-proxy.mjs) and `floor` (the durable-billing floor,
 * ledger-proxy.mjs) run only in the alternated saturation rounds (BENCH_POOL, BENCH_FLOOR), never
 * in the per-target phases: neither streams an answer as it comes, so only non-stream chat
 * compares them fairly.
 */
export type TargetName = 'mock' | 'bare' | 'switchyard' | 'portkey' | 'pool' | 'floor';

export const ALL_TARGETS: readonly TargetName[] = ['mock', 'bare', 'switchyard', 'portkey'];

export interface BenchConfig {
  quick: boolean;
  targets: TargetName[];
  /** Seconds of closed-loop load before a target is measured (JIT, pools, caches). */
  warmupSeconds: number;
  /** Seconds per measured phase (fixed rates, saturation, embeddings, streams). */
  durationSeconds: number;
  /** Non-stream chat rates, requests per second. */
  rates: number[];
  /** How fixed-rate phases send: evenly spaced arrivals (default) or staggered autocannon instances. */
  pacer: Pacer;
  /** Connections of the closed-loop saturation phase. */
  saturationConnections: number;
  /**
   * Alternated saturation rounds after the per-target phases (BENCH_SATURATION_ROUNDS; 5 in a full
   * run, 0 = none): each round starts every gateway afresh and saturates them in turn in short
   * windows, so the throughput ratios compare measurements seconds apart instead of minutes.
   */
  saturationRounds: number;
  /**
   * Whether the rounds also saturate the buffered floor, one undici Pool with bodies read whole
   * (BENCH_POOL; on by default). Absent in results written before it existed.
   */
  poolInRounds?: boolean;
  /** Whether the rounds also saturate the durable-billing floor (BENCH_FLOOR; on in a full run). */
  floorInRounds: boolean;
  /**
   * Warm-up of each gateway in an alternated round, seconds, at the saturation phase's connections
   * (absent in results written before it existed: those rounds warmed up like the phases).
   */
  roundWarmupSeconds?: number;
  /**
   * Measured windows per gateway in a round (BENCH_ROUND_WINDOWS; 4 in a full run), taken in turn
   * while all the round's gateways stay alive; each lasts `durationSeconds` / windows, after a
   * short saturation that is not measured (BENCH_ROUND_REWARM, 1 s). Absent in results written
   * before it existed: those rounds saturated each gateway once, one after another.
   */
  roundWindows?: number;
  roundRewarmSeconds?: number;
  /** Embeddings rate, requests per second. */
  embeddingsRate: number;
  /** Streamed chat: new streams per second (open loop), content chunks, and milliseconds between events. */
  streamRate: number;
  streamChunks: number;
  streamIntervalMs: number;
  /** Concurrency test: simultaneous slow streams, milliseconds between events, seconds each stream lasts. */
  concurrentStreams: number;
  concurrentIntervalMs: number;
  concurrentHoldSeconds: number;
  /** Soak test of Switchyard (seconds; 0 = none) at `soakRate` chat req/s, reporting the RSS slope. */
  soakSeconds: number;
  soakRate: number;
  /** How Switchyard runs: the esbuild bundle (`dist`, built first) or the TypeScript source through tsx. */
  switchyardMode: 'dist' | 'source';
  skipBuild: boolean;
  /** Extra Node flags for Switchyard (BENCH_NODE_ARGS, space-separated), for A/B runs of runtime settings. */
  switchyardNodeArgs: string[];
  /** Pin each gateway to CPU 1 and the mock + load generator to CPU 0 (taskset). */
  pin: boolean;
  /** Switchyard's database: the embedded SQLite (default), or a fresh PostgreSQL or MySQL/MariaDB database. */
  database: BenchDatabaseKind;
  /** Give Switchyard a Redis (caches, limits and change bus shared as in a multi-node set-up). */
  redis: boolean;
  /** PostgreSQL server the variant creates its database on (BENCH_POSTGRES_URL). */
  postgresAdminUrl: string;
  /** MySQL/MariaDB server the variant creates its database on (BENCH_MYSQL_URL). */
  mysqlAdminUrl: string;
  /** Redis the variant uses (BENCH_REDIS_URL; database 13 by default). */
  redisUrl: string;
  /** Markdown report path (relative to the repository root); null = do not write one. */
  outputPath: string | null;
}

type Env = Record<string, string | undefined>;

function number(env: Env, name: string, fallback: number, min = 0): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min)
    throw new Error(`${name} must be a number ≥ ${min}, got "${raw}"`);
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  return raw === '1' || raw === 'true' || raw === 'yes';
}

function list(env: Env, name: string, fallback: string): string[] {
  return (env[name]?.trim() || fallback)
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

/** Node flags given as one space-separated variable (BENCH_NODE_ARGS, PROFILE_NODE_ARGS). */
export function nodeArgsOf(raw: string | undefined): string[] {
  return (raw ?? '').split(' ').filter(Boolean);
}

function pacerOf(raw: string | undefined): Pacer {
  const value = raw?.trim() || 'even';
  if (value !== 'even' && value !== 'autocannon') {
    throw new Error(`BENCH_PACER must be even or autocannon, got "${value}"`);
  }
  return value;
}

export function loadBenchConfig(env: Env = process.env): BenchConfig {
  const quick = flag(env, 'BENCH_QUICK', false);
  const targets = list(env, 'BENCH_TARGETS', ALL_TARGETS.join(','));
  for (const target of targets) {
    if (!ALL_TARGETS.includes(target as TargetName)) {
      throw new Error(`BENCH_TARGETS: unknown target "${target}" (known: ${ALL_TARGETS.join(', ')})`);
    }
  }
  if (!targets.includes('mock')) targets.unshift('mock'); // the baseline every added latency needs
  const mode = (env.BENCH_SWITCHYARD?.trim() || 'dist').toLowerCase();
  if (mode !== 'dist' && mode !== 'source') throw new Error(`BENCH_SWITCHYARD must be dist or source`);
  const rates = list(env, 'BENCH_RATES', quick ? '1000' : '500,1000,2000').map((rate) => {
    const value = Number(rate);
    if (!Number.isInteger(value) || value < 1) throw new Error(`BENCH_RATES: bad rate "${rate}"`);
    return value;
  });
  const output = env.BENCH_OUTPUT?.trim();
  const database = (env.BENCH_DATABASE?.trim() || 'sqlite').toLowerCase();
  if (database !== 'sqlite' && database !== 'postgres' && database !== 'mysql') {
    throw new Error('BENCH_DATABASE must be sqlite, postgres or mysql');
  }
  const redis = flag(env, 'BENCH_REDIS', false);
  const variant = database !== 'sqlite' || redis ? `-${database}${redis ? '-redis' : ''}` : '';
  return {
    quick,
    targets: targets as TargetName[],
    warmupSeconds: number(env, 'BENCH_WARMUP', quick ? 0.5 : 2),
    durationSeconds: number(env, 'BENCH_DURATION', quick ? 1 : 8, 1),
    rates,
    pacer: pacerOf(env.BENCH_PACER),
    saturationRounds: Math.floor(number(env, 'BENCH_SATURATION_ROUNDS', quick ? 0 : 5)),
    poolInRounds: flag(env, 'BENCH_POOL', true),
    floorInRounds: flag(env, 'BENCH_FLOOR', true),
    roundWarmupSeconds: number(env, 'BENCH_ROUND_WARMUP', quick ? 0.5 : 10),
    roundWindows: Math.floor(number(env, 'BENCH_ROUND_WINDOWS', quick ? 1 : 4, 1)),
    roundRewarmSeconds: number(env, 'BENCH_ROUND_REWARM', quick ? 0 : 1),
    saturationConnections: number(env, 'BENCH_SAT_CONNECTIONS', 64, 1),
    embeddingsRate: number(env, 'BENCH_EMBED_RATE', 1000, 1),
    streamRate: number(env, 'BENCH_STREAM_RATE', 200, 1),
    streamChunks: number(env, 'BENCH_STREAM_CHUNKS', 10, 1),
    streamIntervalMs: number(env, 'BENCH_STREAM_INTERVAL_MS', 10, 0),
    concurrentStreams: number(env, 'BENCH_STREAMS', quick ? 300 : 5000, 1),
    concurrentIntervalMs: number(env, 'BENCH_SLOW_STREAM_MS', quick ? 500 : 1000, 10),
    concurrentHoldSeconds: number(env, 'BENCH_STREAM_HOLD', quick ? 2 : 15, 1),
    soakSeconds: number(env, 'BENCH_SOAK', 0),
    soakRate: number(env, 'BENCH_SOAK_RATE', 500, 1),
    switchyardMode: mode,
    skipBuild: flag(env, 'BENCH_SKIP_BUILD', false),
    switchyardNodeArgs: nodeArgsOf(env.BENCH_NODE_ARGS),
    pin: flag(env, 'BENCH_PIN', true),
    database,
    redis,
    postgresAdminUrl: env.BENCH_POSTGRES_URL?.trim() || 'postgres://postgres@127.0.0.1:5432/postgres',
    mysqlAdminUrl: env.BENCH_MYSQL_URL?.trim() || 'mysql://root@127.0.0.1:3306/test',
    redisUrl: env.BENCH_REDIS_URL?.trim() || 'redis://127.0.0.1:6379/13',
    // The variant never overwrites the SQLite report: docs/benchmarks-postgres-redis.md and the like.
    outputPath:
      output === 'none'
        ? null
        : output || (quick ? `bench/results/quick${variant}.md` : `docs/benchmarks${variant}.md`),
  };
}
