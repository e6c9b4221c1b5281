import type { FinishReason } from '../spec/finish-reason.js';
import type { PassthroughTapOptions, PassthroughTapResult } from '../spec/passthrough-tap.js';
import type { UpstreamError } from '../spec/upstream-error.js';
import type { Usage } from '../spec/usage.js';
import { GeneratedTextCollector } from '../util/generated-text-collector.js';

/** Default for `PassthroughTapOptions.maxCollectedChars`. */
export const DEFAULT_MAX_COLLECTED_CHARS = 262_144;

/** What {@link TapFindings.parse} answers for an event whose JSON cannot be read. */
export const MALFORMED: unique symbol = Symbol('malformed event');

/**
 * What a pass-through tap has learned so far, written by the protocol's event reader (usage,
 * finish reason, ids, errors, generated text) and by the SSE skeleton (event count, first event
 * time, malformed events). {@link result} is a snapshot, readable at any time.
 */
export class TapFindings {
  usage: Usage | undefined;
  finishReason: FinishReason | undefined;
  rawFinishReason: string | undefined;
  firstEventAt: number | undefined;
  eventCount = 0;
  sawDone = false;
  droppedUsageChunk = false;
  error: UpstreamError | undefined;
  responseId: string | undefined;
  model: string | undefined;
  malformedEvents = 0;
  readonly generated: GeneratedTextCollector;
  /** `collectText` of the options (default true). */
  readonly collectText: boolean;
  private readonly onMalformedEvent: ((data: string) => void) | undefined;
  private readonly now: () => number;

  constructor(options: PassthroughTapOptions) {
    this.collectText = options.collectText !== false;
    this.onMalformedEvent = options.onMalformedEvent;
    this.now = options.now ?? (() => performance.now());
    this.generated = new GeneratedTextCollector(options.maxCollectedChars ?? DEFAULT_MAX_COLLECTED_CHARS);
  }

  /** Counts one data event (the first one sets `firstEventAt`). */
  countEvent(): void {
    this.eventCount++;
    if (this.firstEventAt === undefined) this.firstEventAt = this.now();
  }

  /** Counts an event whose JSON cannot be read and tells `onMalformedEvent`. */
  malformed(data: string): void {
    this.malformedEvents++;
    this.onMalformedEvent?.(data);
  }

  /** `JSON.parse` of an event's data; {@link MALFORMED} (already counted) when it is not JSON. */
  parse(data: string): unknown {
    try {
      return JSON.parse(data) as unknown;
    } catch {
      this.malformed(data);
      return MALFORMED;
    }
  }

  result(): PassthroughTapResult {
    return {
      usage: this.usage,
      finishReason: this.finishReason,
      rawFinishReason: this.rawFinishReason,
      firstEventAt: this.firstEventAt,
      eventCount: this.eventCount,
      sawDone: this.sawDone,
      droppedUsageChunk: this.droppedUsageChunk,
      error: this.error,
      responseId: this.responseId,
      model: this.model,
      generated: this.generated.result(),
      malformedEvents: this.malformedEvents,
    };
  }
}
