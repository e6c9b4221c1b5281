import dayjs from 'dayjs';

/** Chart time granularity (option DataExportDefaultTime). */
export type Granularity = 'hour' | 'day' | 'week';

export const GRANULARITIES: readonly Granularity[] = ['hour', 'day', 'week'];

export function toGranularity(value: string | undefined): Granularity {
  return value === 'day' || value === 'week' ? value : 'hour';
}

export interface UsageBucket {
  model_name: string;
  created_at: number;
  count: number;
  quota: number;
  token_used: number;
}

export interface DashboardData {
  totals: { quota: number; count: number; tokens: number };
  /** Models, largest quota first. */
  models: string[];
  /** One point per time slot: `time` label plus one value per model. */
  quotaSeries: Array<Record<string, number | string>>;
  countSeries: Array<Record<string, number | string>>;
  /** Calls per model over the whole range. */
  countByModel: Array<{ model: string; count: number }>;
}

/** The start of the slot (Unix seconds) a bucket falls into. */
export function slotOf(createdAt: number, granularity: Granularity): number {
  const time = dayjs.unix(createdAt);
  if (granularity === 'hour') return time.startOf('hour').unix();
  if (granularity === 'day') return time.startOf('day').unix();
  // Weeks start on Monday.
  const day = time.startOf('day');
  return day.subtract((day.day() + 6) % 7, 'day').unix();
}

const labelOf = (slot: number, granularity: Granularity) =>
  dayjs.unix(slot).format(granularity === 'hour' ? 'MM-DD HH:00' : 'YYYY-MM-DD');

/** Sums hourly buckets into slots of the granularity, per model, plus the totals. */
export function buildDashboardData(buckets: UsageBucket[], granularity: Granularity): DashboardData {
  const totals = { quota: 0, count: 0, tokens: 0 };
  const quotaByModel = new Map<string, number>();
  const countByModel = new Map<string, number>();
  const slots = new Map<number, { quota: Map<string, number>; count: Map<string, number> }>();
  for (const bucket of buckets) {
    totals.quota += bucket.quota;
    totals.count += bucket.count;
    totals.tokens += bucket.token_used;
    quotaByModel.set(bucket.model_name, (quotaByModel.get(bucket.model_name) ?? 0) + bucket.quota);
    countByModel.set(bucket.model_name, (countByModel.get(bucket.model_name) ?? 0) + bucket.count);
    const slot = slotOf(bucket.created_at, granularity);
    let entry = slots.get(slot);
    if (!entry) {
      entry = { quota: new Map(), count: new Map() };
      slots.set(slot, entry);
    }
    entry.quota.set(bucket.model_name, (entry.quota.get(bucket.model_name) ?? 0) + bucket.quota);
    entry.count.set(bucket.model_name, (entry.count.get(bucket.model_name) ?? 0) + bucket.count);
  }
  const models = [...quotaByModel.keys()].sort(
    (a, b) => (quotaByModel.get(b) ?? 0) - (quotaByModel.get(a) ?? 0) || a.localeCompare(b),
  );
  const ordered = [...slots.keys()].sort((a, b) => a - b);
  const series = (pick: 'quota' | 'count') =>
    ordered.map((slot) => {
      const point: Record<string, number | string> = { time: labelOf(slot, granularity) };
      for (const model of models) point[model] = slots.get(slot)?.[pick].get(model) ?? 0;
      return point;
    });
  return {
    totals,
    models,
    quotaSeries: series('quota'),
    countSeries: series('count'),
    countByModel: models.map((model) => ({ model, count: countByModel.get(model) ?? 0 })),
  };
}
