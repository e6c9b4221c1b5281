import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { watchMajorGc } from './major-gc-watch.ts';

/** A full collection on demand (the flag only exposes `gc` to contexts created after it is set). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('watchMajorGc', () => {
  it('counts full collections and reads the heap after the latest one', async () => {
    const reading = watchMajorGc();
    expect(watchMajorGc()).toBe(reading);
    const before = reading.count;
    collectGarbage();
    await settle();
    expect(reading.count).toBeGreaterThan(before);
    const afterFirst = reading.heapUsedAfter;
    expect(afterFirst).toBeGreaterThan(1_000_000);

    // 40 MB kept alive across the next full collection shows up in the reading.
    const kept = Array.from({ length: 40 }, () => new Array<number>(2 ** 17).fill(0.5));
    collectGarbage();
    await settle();
    expect(reading.heapUsedAfter).toBeGreaterThan(afterFirst + 30 * 2 ** 20);
    expect(kept.length).toBe(40);
  });
});
