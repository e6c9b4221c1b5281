import { EventEmitter } from 'node:events';

/**
 * The abort of one relay call: `abort()` when the client goes away; the upstream request (undici
 * takes an EventEmitter as its signal), the slot releases and the stream senders listen for
 * 'abort'. An emitter instead of an AbortController: the hot path makes one per call, and an
 * AbortSignal is an EventTarget whose creation and listeners cost several times more (an
 * AbortController per call read 1.11× the relay's CPU per request, ADR-42).
 */
export class RelayAbort extends EventEmitter {
  /** Whether `abort()` has been called (once true, stays true). */
  aborted = false;

  constructor() {
    super();
    // One listener per attempt's request and slot: bounded by the retries, not a leak.
    this.setMaxListeners(0);
  }

  /** Marks the call aborted and tells every listener, once. */
  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.emit('abort');
  }
}

/** What can abort a wait: a relay call's abort or a standard AbortSignal. */
export type AbortSource = RelayAbort | AbortSignal;

/** Calls `listener` once when `source` aborts (not at all when it already has: check `aborted` first). */
export function onAbort(source: AbortSource, listener: () => void): void {
  // `on`, not `once` (no wrapper per listener): a RelayAbort emits 'abort' at most once.
  if (source instanceof RelayAbort) source.on('abort', listener);
  else source.addEventListener('abort', listener, { once: true });
}

/** Removes a listener added with {@link onAbort} (nothing when it has run or was never added). */
export function offAbort(source: AbortSource, listener: () => void): void {
  if (source instanceof RelayAbort) source.off('abort', listener);
  else source.removeEventListener('abort', listener);
}
