/**
 * A small metric registry rendering the Prometheus text exposition format 0.0.4
 * (https://prometheus.io/docs/instrumenting/exposition_formats/): counters, gauges and histograms
 * with labels. No dependency, no global state: each app owns its registry.
 */

/** Label values by label name; every series of a metric uses the same label names. */
export type Labels = Record<string, string | number>;

/** The Content-Type of the rendered text. */
export const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

const NAME_PATTERN = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_PATTERN = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

function escapeHelp(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\n/g, '\\n');
}

function escapeLabelValue(value: string): string {
  return value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n');
}

/** A sample value as Prometheus writes it (+Inf, -Inf, NaN, or a decimal). */
export function formatSampleValue(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Number.POSITIVE_INFINITY) return '+Inf';
  if (value === Number.NEGATIVE_INFINITY) return '-Inf';
  return String(value);
}

function renderLabels(names: readonly string[], values: readonly string[], extra?: [string, string]): string {
  const parts = names.map((name, index) => `${name}="${escapeLabelValue(values[index] ?? '')}"`);
  if (extra) parts.push(`${extra[0]}="${escapeLabelValue(extra[1])}"`);
  return parts.length === 0 ? '' : `{${parts.join(',')}}`;
}

/** One series: its label values (in label-name order) and its data. */
interface SeriesEntry<Series> {
  values: string[];
  data: Series;
}

/** Series by their first label's value, then the next label's, down to the entry. */
type SeriesIndex<Series> = Map<string, SeriesIndex<Series> | SeriesEntry<Series>>;

/** A label's value as the series index and the exposition hold it. */
function labelValue(labels: Labels | undefined, name: string): string {
  const value = labels?.[name];
  return value === undefined ? '' : typeof value === 'string' ? value : String(value);
}

abstract class Metric<Series> {
  /** Every series in creation order (what `render` writes). */
  protected readonly series: Array<SeriesEntry<Series>> = [];
  /** The series of a metric without labels. */
  private unlabelled: SeriesEntry<Series> | null = null;
  private readonly index: SeriesIndex<Series> = new Map();

  constructor(
    readonly name: string,
    readonly help: string,
    readonly labelNames: readonly string[],
    private readonly type: 'counter' | 'gauge' | 'histogram',
  ) {
    if (!NAME_PATTERN.test(name)) throw new Error(`invalid metric name ${name}`);
    for (const label of labelNames) {
      if (!LABEL_PATTERN.test(label) || label === 'le') throw new Error(`invalid label ${label} on ${name}`);
    }
  }

  protected abstract empty(): Series;
  protected abstract renderSeries(values: string[], data: Series): string[];

  /** The series for these labels, created on first use. */
  protected seriesOf(labels?: Labels): Series {
    // Called on the relay's hot path: found through one map per label (values as strings; small
    // integers' strings come from V8's cache), with no key string built per call.
    const names = this.labelNames;
    if (names.length === 0) {
      this.unlabelled ??= this.add([]);
      return this.unlabelled.data;
    }
    let level = this.index;
    const last = names.length - 1;
    for (let index = 0; index < last; index++) {
      const value = labelValue(labels, names[index]!);
      let next = level.get(value) as SeriesIndex<Series> | undefined;
      if (next === undefined) {
        next = new Map();
        level.set(value, next);
      }
      level = next;
    }
    const value = labelValue(labels, names[last]!);
    let entry = level.get(value) as SeriesEntry<Series> | undefined;
    if (entry === undefined) {
      entry = this.add(names.map((name) => labelValue(labels, name)));
      level.set(value, entry);
    }
    return entry.data;
  }

  private add(values: string[]): SeriesEntry<Series> {
    const entry = { values, data: this.empty() };
    this.series.push(entry);
    return entry;
  }

  /** Creates the series for these labels so it is exported (as zero) before its first update. */
  init(labels?: Labels): this {
    this.seriesOf(labels);
    return this;
  }

  /** HELP and TYPE lines followed by every series, in creation order. */
  render(): string {
    const lines = [`# HELP ${this.name} ${escapeHelp(this.help)}`, `# TYPE ${this.name} ${this.type}`];
    for (const { values, data } of this.series) lines.push(...this.renderSeries(values, data));
    return lines.join('\n');
  }
}

/** A value that only goes up (counted here, or brought up to date by `collect` at render time). */
export class Counter extends Metric<{ value: number }> {
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[] = [],
    private readonly collect?: (counter: Counter) => void,
  ) {
    super(name, help, labelNames, 'counter');
  }
  override render(): string {
    this.collect?.(this);
    return super.render();
  }
  protected empty() {
    return { value: 0 };
  }
  /** Adds `amount` (default 1); negative or non-finite amounts are ignored. */
  inc(labels?: Labels, amount = 1): void {
    if (!Number.isFinite(amount) || amount < 0) return;
    this.seriesOf(labels).value += amount;
  }
  /** The current value of one series (0 when never touched). */
  get(labels?: Labels): number {
    return this.seriesOf(labels).value;
  }
  protected renderSeries(values: string[], data: { value: number }) {
    return [`${this.name}${renderLabels(this.labelNames, values)} ${formatSampleValue(data.value)}`];
  }
}

/** A value that goes up and down, or is read from a callback at render time. */
export class Gauge extends Metric<{ value: number }> {
  constructor(
    name: string,
    help: string,
    labelNames: readonly string[] = [],
    private readonly collect?: (gauge: Gauge) => void,
  ) {
    super(name, help, labelNames, 'gauge');
  }
  protected empty() {
    return { value: 0 };
  }
  set(labels: Labels | undefined, value: number): void {
    this.seriesOf(labels).value = value;
  }
  inc(labels?: Labels, amount = 1): void {
    this.seriesOf(labels).value += amount;
  }
  dec(labels?: Labels, amount = 1): void {
    this.seriesOf(labels).value -= amount;
  }
  get(labels?: Labels): number {
    return this.seriesOf(labels).value;
  }
  override render(): string {
    this.collect?.(this);
    return super.render();
  }
  protected renderSeries(values: string[], data: { value: number }) {
    return [`${this.name}${renderLabels(this.labelNames, values)} ${formatSampleValue(data.value)}`];
  }
}

interface HistogramSeries {
  /** Non-cumulative count per bucket; the last slot is +Inf. */
  buckets: number[];
  sum: number;
  count: number;
}

/** Observations counted into cumulative `le` buckets, with `_sum` and `_count`. */
export class Histogram extends Metric<HistogramSeries> {
  readonly bounds: readonly number[];

  constructor(name: string, help: string, bounds: readonly number[], labelNames: readonly string[] = []) {
    super(name, help, labelNames, 'histogram');
    const sorted = [...bounds].sort((a, b) => a - b);
    if (
      sorted.length === 0 ||
      sorted.some((bound, index) => !Number.isFinite(bound) || bound === sorted[index - 1])
    ) {
      throw new Error(`histogram ${name} needs distinct finite bucket bounds`);
    }
    this.bounds = sorted;
  }
  protected empty(): HistogramSeries {
    return { buckets: new Array(this.bounds.length + 1).fill(0), sum: 0, count: 0 };
  }
  /** Records one observation; non-finite values are ignored. */
  observe(labels: Labels | undefined, value: number): void {
    if (!Number.isFinite(value)) return;
    const data = this.seriesOf(labels);
    const bounds = this.bounds;
    let index = 0;
    while (index < bounds.length && value > bounds[index]!) index++;
    data.buckets[index] = (data.buckets[index] ?? 0) + 1;
    data.sum += value;
    data.count += 1;
  }
  /** Count and sum of one series. */
  get(labels?: Labels): { count: number; sum: number } {
    const { count, sum } = this.seriesOf(labels);
    return { count, sum };
  }
  protected renderSeries(values: string[], data: HistogramSeries) {
    const lines: string[] = [];
    let cumulative = 0;
    [...this.bounds, Number.POSITIVE_INFINITY].forEach((bound, index) => {
      cumulative += data.buckets[index] ?? 0;
      const labels = renderLabels(this.labelNames, values, ['le', formatSampleValue(bound)]);
      lines.push(`${this.name}_bucket${labels} ${cumulative}`);
    });
    const plain = renderLabels(this.labelNames, values);
    lines.push(`${this.name}_sum${plain} ${formatSampleValue(data.sum)}`);
    lines.push(`${this.name}_count${plain} ${data.count}`);
    return lines;
  }
}

/** A set of metrics rendered together. */
export class MetricRegistry {
  private readonly metrics: Array<Counter | Gauge | Histogram> = [];

  register<M extends Counter | Gauge | Histogram>(metric: M): M {
    if (this.metrics.some((existing) => existing.name === metric.name)) {
      throw new Error(`metric ${metric.name} is already registered`);
    }
    this.metrics.push(metric);
    return metric;
  }

  /** The whole exposition text, ending with a newline. */
  render(): string {
    return `${this.metrics.map((metric) => metric.render()).join('\n')}\n`;
  }
}
