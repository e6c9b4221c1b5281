/** [from, to) in Unix seconds; null = unbounded on that side. */
export interface TimeRange {
  from: number | null;
  to: number | null;
}

/** Whole buckets of one length: every bucket start b with from ≤ b < to (null = unbounded). */
export interface BucketSegment extends TimeRange {
  span: number;
}

/** How a time range is answered: whole buckets from the aggregates, the rest from raw rows. */
export interface RangeSplit {
  buckets: BucketSegment[];
  /** The covered part, [from, to): rows in it are counted by `buckets` (once rolled up). */
  covered: TimeRange | null;
  /** The partial buckets at the ends, read from raw rows. */
  edges: TimeRange[];
}

const floorTo = (t: number, span: number) => Math.floor(t / span) * span;
const ceilTo = (t: number, span: number) => Math.ceil(t / span) * span;

/**
 * Splits [from, to) into the longest whole buckets that fit (`spans` longest first, each a
 * multiple of the next), shorter ones towards the ends, and raw edges shorter than the shortest
 * span. An unbounded side is covered by buckets all the way.
 */
export function splitRange(range: TimeRange, spans: readonly number[]): RangeSplit {
  const shortest = spans[spans.length - 1];
  if (shortest === undefined) return { buckets: [], covered: null, edges: [range] };
  const { from, to } = range;
  if (from !== null && to !== null && to <= from) return { buckets: [], covered: null, edges: [] };
  const coveredFrom = from === null ? null : ceilTo(from, shortest);
  const coveredTo = to === null ? null : floorTo(to, shortest);
  if (coveredFrom !== null && coveredTo !== null && coveredTo <= coveredFrom) {
    return { buckets: [], covered: null, edges: [range] };
  }
  const edges: TimeRange[] = [];
  if (from !== null && coveredFrom !== null && coveredFrom > from) edges.push({ from, to: coveredFrom });
  if (to !== null && coveredTo !== null && to > coveredTo) edges.push({ from: coveredTo, to });

  const buckets: BucketSegment[] = [];
  // Peel from the longest span inwards: the part each span covers whole, then the leftovers on
  // either side go to the next shorter span.
  const fill = (lo: number | null, hi: number | null, level: number) => {
    if (lo !== null && hi !== null && hi <= lo) return;
    const span = spans[level]!;
    if (level === spans.length - 1) {
      buckets.push({ span, from: lo, to: hi });
      return;
    }
    const innerFrom = lo === null ? null : ceilTo(lo, span);
    const innerTo = hi === null ? null : floorTo(hi, span);
    if (innerFrom !== null && innerTo !== null && innerTo <= innerFrom) {
      fill(lo, hi, level + 1);
      return;
    }
    if (lo !== null && innerFrom !== null) fill(lo, innerFrom, level + 1);
    buckets.push({ span, from: innerFrom, to: innerTo });
    if (hi !== null && innerTo !== null) fill(innerTo, hi, level + 1);
  };
  fill(coveredFrom, coveredTo, 0);
  return { buckets, covered: { from: coveredFrom, to: coveredTo }, edges };
}
