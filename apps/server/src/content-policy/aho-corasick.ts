/**
 * Multi-pattern matcher (Aho–Corasick): one pass over the text finds every pattern, whatever the
 * number of patterns. Built once per word list; matching allocates nothing but the result.
 * Case-insensitive for the letters `toLowerCase` folds.
 */
export class AhoCorasick {
  /** goto transitions per state, keyed by UTF-16 code unit. */
  private readonly next: Array<Map<number, number>> = [new Map()];
  private readonly fail: number[] = [0];
  /** Index (into `patterns`) of the longest pattern ending at a state, or -1. */
  private readonly output: number[] = [-1];
  /** Next state on the failure chain that has an output (dictionary suffix link), or -1. */
  private readonly outputLink: number[] = [-1];
  readonly patterns: readonly string[];
  /**
   * 1 for the code units a pattern starts with: from the start state (where a scan spends most of
   * its characters) every other one leads back to it, found without a map look-up.
   */
  private readonly startsPattern = new Uint8Array(65536);

  constructor(words: Iterable<string>) {
    const patterns: string[] = [];
    const seen = new Set<string>();
    for (const word of words) {
      const pattern = word.trim().toLowerCase();
      if (pattern === '' || seen.has(pattern)) continue;
      seen.add(pattern);
      patterns.push(pattern);
      let state = 0;
      for (let i = 0; i < pattern.length; i++) {
        const code = pattern.charCodeAt(i);
        let target = this.next[state]!.get(code);
        if (target === undefined) {
          target = this.next.length;
          this.next.push(new Map());
          this.fail.push(0);
          this.output.push(-1);
          this.outputLink.push(-1);
          this.next[state]!.set(code, target);
        }
        state = target;
      }
      if (this.output[state] === -1) this.output[state] = patterns.length - 1;
    }
    this.patterns = patterns;
    for (const code of this.next[0]!.keys()) this.startsPattern[code] = 1;
    this.buildFailureLinks();
  }

  private buildFailureLinks(): void {
    const queue: number[] = [];
    for (const child of this.next[0]!.values()) queue.push(child);
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head]!;
      for (const [code, child] of this.next[state]!) {
        let fallback = this.fail[state]!;
        while (fallback !== 0 && !this.next[fallback]!.has(code)) fallback = this.fail[fallback]!;
        const target = this.next[fallback]!.get(code);
        this.fail[child] = target !== undefined && target !== child ? target : 0;
        const link = this.fail[child]!;
        this.outputLink[child] = this.output[link] !== -1 ? link : this.outputLink[link]!;
        queue.push(child);
      }
    }
  }

  /** True when the list is empty (nothing can match). */
  get isEmpty(): boolean {
    return this.patterns.length === 0;
  }

  /** The distinct patterns found in `text`, in order of first appearance (stops after `limit`). */
  findAll(text: string, limit = 10): string[] {
    if (this.patterns.length === 0) return [];
    const found: string[] = [];
    const lower = text.toLowerCase();
    let state = 0;
    for (let i = 0; i < lower.length; i++) {
      const code = lower.charCodeAt(i);
      if (state === 0 && this.startsPattern[code] === 0) continue;
      let target = this.next[state]!.get(code);
      while (target === undefined && state !== 0) {
        state = this.fail[state]!;
        target = this.next[state]!.get(code);
      }
      state = target ?? 0;
      for (
        let match = this.output[state] !== -1 ? state : this.outputLink[state]!;
        match !== -1;
        match = this.outputLink[match]!
      ) {
        const pattern = this.patterns[this.output[match]!]!;
        if (!found.includes(pattern)) {
          found.push(pattern);
          if (found.length >= limit) return found;
        }
      }
    }
    return found;
  }
}
