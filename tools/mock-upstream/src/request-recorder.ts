import type { IncomingHttpHeaders } from 'node:http';

/** One request the mock received, as tests inspect it. */
export interface RecordedRequest {
  /** HTTP method, upper case. */
  readonly method: string;
  /** Path without the `/__mock/<spec>` prefix and without the query string. */
  readonly path: string;
  /** The request target exactly as received (prefix and query string included). */
  readonly url: string;
  /** Request headers as Node parsed them (lower-case names). */
  readonly headers: IncomingHttpHeaders;
  /** The JSON body parsed, the raw text when it is not JSON, `undefined` when empty. */
  readonly body: unknown;
  /** The scenario spec the request selected, if any. */
  readonly scenario: string | undefined;
  /** Arrival time in milliseconds since the epoch. */
  readonly time: number;
}

/**
 * A fixed-size ring buffer of recorded requests: recording never grows memory without bound,
 * even when a benchmark sends millions of requests.
 */
export class RequestRecorder {
  private readonly entries: (RecordedRequest | undefined)[];
  private next = 0;
  private count = 0;

  /** @param limit how many of the most recent requests to keep; 0 turns recording off. */
  constructor(readonly limit: number) {
    this.entries = new Array<RecordedRequest | undefined>(Math.max(0, limit));
  }

  /** Stores a request, overwriting the oldest one when the buffer is full. */
  record(entry: RecordedRequest): void {
    if (this.limit === 0) return;
    this.entries[this.next] = entry;
    this.next = (this.next + 1) % this.limit;
    if (this.count < this.limit) this.count++;
  }

  /** The kept requests, oldest first (a new array each call). */
  list(): RecordedRequest[] {
    const result: RecordedRequest[] = [];
    const start = this.count < this.limit ? 0 : this.next;
    for (let offset = 0; offset < this.count; offset++) {
      const entry = this.entries[(start + offset) % this.limit];
      if (entry) result.push(entry);
    }
    return result;
  }

  /** Forgets every kept request. */
  clear(): void {
    this.entries.fill(undefined);
    this.next = 0;
    this.count = 0;
  }

  /** Number of requests currently kept. */
  get size(): number {
    return this.count;
  }
}
