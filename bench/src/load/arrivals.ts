/**
 * Open-loop arrivals at a fixed rate: call i is due at i/rate seconds, and a 1 ms timer starts
 * every call that has come due, whether or not earlier ones have finished (a slow target gets
 * more calls in flight, never fewer arrivals). Beyond `maxInFlight` a due call is refused instead
 * of started. Resolves once every started call has settled; `start` must not reject.
 */
export async function startAtRate(options: {
  rate: number;
  durationSeconds: number;
  maxInFlight: number;
  start: () => Promise<void>;
  refuse: () => void;
}): Promise<void> {
  const { rate, maxInFlight, start, refuse } = options;
  const total = Math.round(rate * options.durationSeconds);
  const inFlight = new Set<Promise<void>>();
  const started = performance.now();
  let issued = 0;
  await new Promise<void>((resolve) => {
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - started) * rate) / 1000) + 1);
      while (issued < due) {
        issued++;
        if (inFlight.size >= maxInFlight) {
          refuse();
          continue;
        }
        const run = start().finally(() => inFlight.delete(run));
        inFlight.add(run);
      }
      if (issued >= total) resolve();
      else setTimeout(tick, 1);
    };
    tick();
  });
  await Promise.all(inFlight);
}
