/** Exact percentiles from every sample (milliseconds, sub-millisecond resolution). */
export interface LatencySummary {
  count: number;
  mean: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
}

export class LatencyRecorder {
  private samples = new Float64Array(4096);
  private size = 0;

  record(milliseconds: number): void {
    if (this.size === this.samples.length) {
      const grown = new Float64Array(this.samples.length * 2);
      grown.set(this.samples);
      this.samples = grown;
    }
    this.samples[this.size++] = milliseconds;
  }

  get count(): number {
    return this.size;
  }

  summary(): LatencySummary {
    const sorted = this.samples.slice(0, this.size).sort();
    const at = (quantile: number) =>
      sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil(quantile * sorted.length) - 1)]!;
    let total = 0;
    for (const value of sorted) total += value;
    return {
      count: sorted.length,
      mean: sorted.length === 0 ? 0 : total / sorted.length,
      p50: at(0.5),
      p90: at(0.9),
      p99: at(0.99),
      max: sorted.length === 0 ? 0 : sorted[sorted.length - 1]!,
    };
  }
}
