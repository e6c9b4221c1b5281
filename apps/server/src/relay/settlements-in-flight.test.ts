import { describe, expect, it } from 'vitest';
import { SettlementsInFlight } from './settlements-in-flight.ts';

const deferred = () => {
  let resolve!: () => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<void>((yes, no) => {
    resolve = yes;
    reject = no;
  });
  return { promise, resolve, reject };
};

describe('SettlementsInFlight', () => {
  it('is idle at once when nothing runs', async () => {
    const inFlight = new SettlementsInFlight();
    expect(inFlight.size).toBe(0);
    await expect(inFlight.idle()).resolves.toBeUndefined();
  });

  it('counts settlements until each ends, and wakes every waiter when the last one does', async () => {
    const inFlight = new SettlementsInFlight();
    const first = deferred();
    const second = deferred();
    const errors: unknown[] = [];
    inFlight.track(first.promise, (error) => errors.push(error));
    inFlight.track(second.promise, (error) => errors.push(error));
    expect(inFlight.size).toBe(2);
    let woken = 0;
    const waiting = [inFlight.idle().then(() => woken++), inFlight.idle().then(() => woken++)];
    first.resolve();
    await first.promise;
    await Promise.resolve();
    expect(inFlight.size).toBe(1);
    expect(woken).toBe(0);
    const failure = new Error('database refused');
    second.reject(failure);
    await Promise.all(waiting);
    expect(woken).toBe(2);
    expect(inFlight.size).toBe(0);
    expect(errors).toEqual([failure]);
  });
});
