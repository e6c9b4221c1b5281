/**
 * The relay calls' settlements still running, counted: shutdown (and tests) wait until none is
 * left. A count rather than a set of their promises: a set that gains and loses an entry per call
 * rehashes its table over and over, and every table it allocates is garbage.
 */
export class SettlementsInFlight {
  private running = 0;
  private waiters: Array<() => void> = [];
  private readonly finished = () => {
    this.running--;
    if (this.running > 0 || this.waiters.length === 0) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const wake of waiters) wake();
  };

  /** Settlements started and not finished. */
  get size(): number {
    return this.running;
  }

  /** Counts `settlement` until it ends; a failure goes to `onError` (the settlement itself logs nothing). */
  track(settlement: Promise<unknown>, onError: (error: unknown) => void): void {
    this.running++;
    settlement.then(this.finished, (error: unknown) => {
      this.finished();
      onError(error);
    });
  }

  /** Resolves once no settlement is running (at once when none is). */
  idle(): Promise<void> {
    if (this.running === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }
}
