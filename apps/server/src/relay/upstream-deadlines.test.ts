import { afterEach, describe, expect, it } from 'vitest';
import {
  type DeadlineKind,
  MIN_WATCHED_MS,
  UpstreamDeadlines,
  type WatchedCall,
} from './upstream-deadlines.ts';

/** A watched call that records how it expired. */
function call(): WatchedCall & { expired: DeadlineKind[] } {
  const expired: DeadlineKind[] = [];
  return {
    deadline: 0,
    answering: false,
    previousLinked: null,
    nextLinked: null,
    expired,
    expire: (kind) => expired.push(kind),
  };
}

/** The tick of the watches below: a deadline is set one tick further than its delay. */
const TICK = 100;

describe('UpstreamDeadlines', () => {
  let time = 1_000;
  // A clock the test moves (the interval's own ticks see it unchanged: the tests do not wait).
  let deadlines = new UpstreamDeadlines(() => time, TICK);
  afterEach(() => {
    deadlines.close();
    time = 1_000;
    deadlines = new UpstreamDeadlines(() => time, TICK);
  });

  it('expires a call that gets no first byte within its timeout, once', () => {
    const silent = call();
    deadlines.watch(silent, 5_000);
    time += TICK + 4_999;
    deadlines.tick();
    expect(silent.expired).toEqual([]);
    time += 1;
    deadlines.tick();
    expect(silent.expired).toEqual(['first-byte']);
    expect(deadlines.size).toBe(0);
    time += 10_000;
    deadlines.tick();
    expect(silent.expired).toEqual(['first-byte']);
  });

  it('gives an answering call its idle timeout from its last activity', () => {
    const answering = call();
    deadlines.watch(answering, 5_000);
    time += 3_000;
    deadlines.tick();
    answering.answering = true;
    deadlines.touch(answering, 2_000);
    time += 1_500;
    deadlines.tick();
    deadlines.touch(answering, 2_000); // more of the body arrived
    time += TICK + 1_999;
    deadlines.tick();
    expect(answering.expired).toEqual([]);
    time += 1;
    deadlines.tick();
    expect(answering.expired).toEqual(['idle']);
  });

  it('forgets a finished call, and keeps no limit when the timeout is infinite', () => {
    const finished = call();
    const unlimited = call();
    deadlines.watch(finished, 1_000);
    deadlines.watch(unlimited, Number.POSITIVE_INFINITY);
    deadlines.forget(finished);
    time += 3_600_000;
    deadlines.tick();
    expect(finished.expired).toEqual([]);
    expect(unlimited.expired).toEqual([]);
    expect(deadlines.size).toBe(1);
  });

  it('keeps every other call when one in the middle of the list is forgotten or expires', () => {
    const [a, b, c, d] = [call(), call(), call(), call()];
    deadlines.watch(a, 1_000);
    deadlines.watch(b, 5_000);
    deadlines.watch(c, 1_000);
    deadlines.watch(d, 5_000);
    deadlines.watch(c, 1_000); // watched twice: still one entry
    expect(deadlines.size).toBe(4);
    deadlines.forget(b);
    deadlines.forget(b);
    expect(deadlines.size).toBe(3);
    time += TICK + 1_000;
    deadlines.tick();
    expect([a.expired, b.expired, c.expired, d.expired]).toEqual([['first-byte'], [], ['first-byte'], []]);
    expect(deadlines.size).toBe(1);
    time += 4_000;
    deadlines.tick();
    expect(d.expired).toEqual(['first-byte']);
    expect(deadlines.size).toBe(0);
  });

  it('expires every late call in one tick, though an expiry ends another call', () => {
    const [a, b, c] = [call(), call(), call()];
    for (const late of [a, b, c]) deadlines.watch(late, 1_000);
    // c is walked first (newest first); its abort ends b on the way (as undici's callbacks may).
    c.expire = (kind) => {
      c.expired.push(kind);
      deadlines.forget(b);
    };
    time += TICK + 1_000;
    deadlines.tick();
    expect([a.expired, b.expired, c.expired]).toEqual([['first-byte'], [], ['first-byte']]);
    expect(deadlines.size).toBe(0);
  });

  it('leaves timeouts under a second to undici', () => {
    expect(UpstreamDeadlines.watches(MIN_WATCHED_MS - 1)).toBe(false);
    expect(UpstreamDeadlines.watches(MIN_WATCHED_MS)).toBe(true);
    expect(UpstreamDeadlines.watches(Number.POSITIVE_INFINITY)).toBe(true);
  });

  it('ticks on its own while calls are watched, and stops when none are left', async () => {
    const ticking = new UpstreamDeadlines(() => performance.now(), 20);
    const late = call();
    expect(ticking.ticking).toBe(false);
    ticking.watch(late, 1);
    expect(ticking.ticking).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(late.expired).toEqual(['first-byte']);
    expect(ticking.ticking).toBe(false);
    // The interval stopped with nothing to watch: a new call starts it again.
    const next = call();
    ticking.watch(next, 1);
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(next.expired).toEqual(['first-byte']);
    ticking.close();
  });
});
