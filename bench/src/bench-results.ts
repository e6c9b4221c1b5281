/** What one run measured, per target and phase (kept plain so it can be written as JSON). */
import type { BenchConfig, TargetName } from './bench-config.ts';
import type { LoadResult } from './load/load-jobs.ts';
import type { MachineInfo } from './machine-info.ts';
import type { BillingBenchResult } from './micro/billing-bench.ts';
import type { SensitiveWordsResult } from './micro/sensitive-words-bench.ts';
import type { SaturationRounds } from './saturation-rounds.ts';

export interface PhaseResult {
  load: LoadResult;
  /** Peak resident memory of the process under test during the phase, bytes. */
  peakRss: number;
  /** CPU time the process under test used during the phase, milliseconds. */
  cpuMs: number;
  /**
   * Switchyard only: its event-loop delay during the phase (p99 and longest, ms, sampled every
   * 10 ms; read from /metrics, whose scrape starts a new window).
   */
  loopDelay?: { p99Ms: number; maxMs: number };
}

export interface ConcurrencyResult extends PhaseResult {
  requested: number;
  /** RSS just before the streams were opened, bytes. */
  baselineRss: number;
  /** RSS a second after the streams ended, bytes. */
  afterRss: number;
}

export interface SoakResult extends PhaseResult {
  seconds: number;
  rate: number;
  /** RSS at the start and end of the soak, bytes. */
  startRss: number;
  endRss: number;
  /** Least-squares slope of RSS over the last 80% of the soak, MB per minute. */
  slopeMbPerMinute: number;
  /** RSS at the end of each minute of the soak, MB (absent in runs made before it was recorded). */
  rssPerMinuteMb?: number[];
  /**
   * Slope of the V8 heap's floor (lowest heap-used sample of each 30 s, read from /metrics) over
   * the last 80%, MB per minute: what survives collection. Absent when /metrics gave too few samples.
   */
  heapFloorSlopeMbPerMinute?: number;
  /** Theil–Sen slope of the same floors (median of pairwise slopes), MB per minute: the verdict's. */
  heapFloorTrendMbPerMinute?: number;
  /** The heap floor at the end of each minute, MB. */
  heapFloorPerMinuteMb?: number[];
  /**
   * The heap right after full collections (nodejs_heap_used_after_major_gc_bytes, one reading per
   * poll that saw a new one): what the process keeps. The verdict's series when it has ≥ 4 readings.
   */
  heapAfterMajorGc?: {
    readings: number;
    /** Least-squares slope over the last 80%, MB per minute. */
    slopeMbPerMinute: number;
    /** Theil–Sen slope over the last 80%, MB per minute: the verdict. */
    trendMbPerMinute: number;
    /** The reading nearest the end of each minute, MB. */
    perMinuteMb: number[];
  };
}

export interface TargetResults {
  name: TargetName;
  label: string;
  /** RSS right after start-up and the probe, bytes. */
  idleRss: number;
  /** CPU used by other processes on the machine while this target was measured, % of all cores. */
  backgroundCpuPercent: number;
  fixedRates: Record<number, PhaseResult>;
  saturation?: PhaseResult;
  embeddings?: PhaseResult;
  streams?: PhaseResult;
  concurrency?: ConcurrencyResult;
  soak?: SoakResult;
}

export interface BenchRun {
  /** The command line that produced the run (BENCH_* settings and niceness included). */
  command?: string;
  config: BenchConfig;
  machine: MachineInfo;
  pinned: boolean;
  /** CPU used by other processes in the seconds before the run started, % of all cores. */
  busyBeforeStartPercent: number;
  notes: string[];
  targets: TargetResults[];
  /** Alternated saturation rounds of the gateways (absent in runs made before them, or with 0 rounds). */
  saturationRounds?: SaturationRounds;
  /** Micro-benchmark of the sensitive-word check, on the gateways' CPU. */
  sensitiveWords?: SensitiveWordsResult;
  /** Micro-benchmark of the database work of one relay call (billing, log row), SQLite. */
  billing?: BillingBenchResult;
  /** Seconds the whole run took. */
  elapsedSeconds: number;
}
