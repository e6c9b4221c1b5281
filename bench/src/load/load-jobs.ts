/** Jobs the load-generator process runs, and what it reports back. */
import type { LatencySummary } from './latency-recorder.ts';

/** How fixed-rate load is sent: see open-loop-load.ts and autocannon-load.ts. */
export type Pacer = 'even' | 'autocannon';

export interface RequestSpec {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export type LoadJob =
  | ({
      kind: 'paced';
      rate: number;
      durationSeconds: number;
      /** Evenly spaced arrivals (open-loop-load.ts, the default) or staggered autocannon instances. */
      pacer?: Pacer;
    } & RequestSpec)
  | ({ kind: 'saturate'; connections: number; durationSeconds: number } & RequestSpec)
  | ({ kind: 'streams'; rate: number; durationSeconds: number } & RequestSpec)
  | ({ kind: 'concurrent'; count: number; timeoutSeconds: number } & RequestSpec);

export interface LoadResult {
  /** 2xx responses (streams: complete streams ending in [DONE]). */
  ok: number;
  /** Non-2xx responses, network errors and timeouts. */
  failed: number;
  /** The first failure, for the report. */
  firstFailure?: string;
  /** Seconds the measured phase lasted. */
  seconds: number;
  /** ok / seconds. */
  rps: number;
  /** Full response time of successful requests. */
  latency: LatencySummary;
  /** Streams: time to the first body byte. */
  firstByte?: LatencySummary;
  /** Concurrency test: streams whose headers arrived, peak simultaneous open streams, time to open all. */
  opened?: number;
  peakOpen?: number;
  allOpenAfterMs?: number | null;
}
