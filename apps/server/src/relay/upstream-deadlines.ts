/**
 * The first-byte and idle timeouts of whole-answer upstream calls, kept by one coarse clock for
 * all of them instead of undici's timers per request. With undici's own timeouts, every request
 * made two of its fast timers (first byte, then body idle: their delays differ) plus the pool's
 * keep-alive timer; a cleared fast timer stays in undici's list until its next tick, long enough
 * to be promoted by the garbage collector. Here a call is linked into a list (a LinkedSet: its own
 * two links; a Set kept finished calls' answers alive through scavenges) and has a number written
 * per chunk; one interval, running only while calls are watched, expires the late ones.
 *
 * The resolution is the tick (TICK_MS): the clock read at the last tick can be a tick old, so a
 * deadline is set a tick further, and a timeout fires between its delay and its delay plus two
 * ticks, never before (undici's fast timers are as coarse, about a second). Delays under
 * MIN_WATCHED_MS are left to undici (exact native timers), as undici itself does for them.
 */

import { type Linked, LinkedSet } from '../lib/linked-set.ts';

/** How often the watched calls are checked, milliseconds. */
export const TICK_MS = 250;

/** Timeouts shorter than this are not watched here (the caller gives them to undici). */
export const MIN_WATCHED_MS = 1_000;

/** Which of a call's timeouts ran out. */
export type DeadlineKind = 'first-byte' | 'idle';

/** One watched upstream call: the deadline's owner reports activity and hears when it passed. */
export interface WatchedCall extends Linked<WatchedCall> {
  /** Clock time (the watch's `now`) after which the call has timed out. */
  deadline: number;
  /** Called once, from the watch's tick, when the deadline has passed; the call is unwatched first. */
  expire(kind: DeadlineKind): void;
  /** Whether the answer's headers have arrived (the idle timeout applies from then on). */
  answering: boolean;
}

export class UpstreamDeadlines {
  private readonly watched = new LinkedSet<WatchedCall>();
  private timer: NodeJS.Timeout | null = null;
  /** The clock, milliseconds, as of the last tick (or of `watch` when the interval was idle). */
  now = 0;

  constructor(
    private readonly clock: () => number = () => performance.now(),
    private readonly tickMs = TICK_MS,
  ) {}

  /** Number of calls watched (tests and diagnostics). */
  get size(): number {
    return this.watched.size;
  }

  /** Whether the interval runs (only while calls are watched). */
  get ticking(): boolean {
    return this.timer !== null;
  }

  /** Starts watching `call`, due `timeoutMs` from now (waiting for its first byte; Infinity = no limit). */
  watch(call: WatchedCall, timeoutMs: number): void {
    if (this.timer === null) {
      this.now = this.clock();
      this.timer = setInterval(() => this.tick(), this.tickMs);
      this.timer.unref();
    }
    call.answering = false;
    call.deadline = this.now + this.tickMs + timeoutMs;
    this.watched.add(call);
  }

  /** Pushes the deadline `timeoutMs` past now: the answer started, or more of it arrived. */
  touch(call: WatchedCall, timeoutMs: number): void {
    call.deadline = this.now + this.tickMs + timeoutMs;
  }

  /** Whether a timeout is kept here (else the caller gives it to undici): none (Infinity) or long enough. */
  static watches(timeoutMs: number): boolean {
    return timeoutMs >= MIN_WATCHED_MS;
  }

  /** Stops watching `call` (answer complete, failed or aborted); nothing when it is not watched. */
  forget(call: WatchedCall): void {
    this.watched.delete(call);
  }

  /** Expires the calls whose deadline passed; stops the interval when nothing is watched. */
  tick(): void {
    const now = this.clock();
    this.now = now;
    // Found first, expired after: an expiry runs undici's abort, whose callbacks may end (and
    // unlink) other calls, which a walk still under way would then lose its place after.
    const expired: WatchedCall[] = [];
    this.watched.forEach((call) => {
      if (call.deadline <= now) expired.push(call);
    });
    for (const call of expired) {
      // One that ended meanwhile is left alone.
      if (this.watched.delete(call)) call.expire(call.answering ? 'idle' : 'first-byte');
    }
    if (this.watched.size === 0 && this.timer !== null) {
      clearInterval(this.timer);
      this.timer = null;
    }
  }

  /** Stops the interval (the client is closing); watched calls are left to their own ends. */
  close(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
  }
}
