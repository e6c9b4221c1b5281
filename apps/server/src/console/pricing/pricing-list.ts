import { type PricingEntry, PricingQuotaType } from '@switchyard/shared';
import { lookUpPrice, type PriceTables } from '../../billing/pricing/price-book.ts';
import type { DatabaseHandle } from '../../db/database.ts';

/** Builds the pricing entries from (group, model) pairs of enabled abilities. Pure. */
export function buildPricingEntries(
  abilities: ReadonlyArray<{ group: string; model: string }>,
  tables: PriceTables,
): PricingEntry[] {
  const groupsByModel = new Map<string, Set<string>>();
  for (const { group, model } of abilities) {
    let groups = groupsByModel.get(model);
    if (!groups) {
      groups = new Set();
      groupsByModel.set(model, groups);
    }
    groups.add(group);
  }
  const entries: PricingEntry[] = [];
  for (const model of [...groupsByModel.keys()].sort()) {
    const enableGroups = [...(groupsByModel.get(model) ?? [])].sort();
    // The group does not change the model's own price; unpriced models show the 37.5 default.
    const price = lookUpPrice(tables, model, '', true);
    if (!price) continue;
    const perCall = price.modelPrice !== null;
    entries.push({
      model_name: model,
      quota_type: perCall ? PricingQuotaType.Price : PricingQuotaType.Ratio,
      model_ratio: perCall ? 0 : price.modelRatio,
      model_price: price.modelPrice ?? 0,
      owner_by: '',
      completion_ratio: perCall ? 0 : price.completionRatio,
      enable_groups: enableGroups,
    });
  }
  return entries;
}

/** How long a computed list is served before it is rebuilt (the reference: once a minute). */
const TTL_MS = 60_000;

/**
 * The pricing list, computed from the abilities table and the price options at most once per
 * TTL_MS and dropped at once by `invalidate()` (wired to channel and option changes). Concurrent
 * callers share one computation; a result computed across an invalidation is not kept.
 */
export class PricingList {
  private cached: { entries: PricingEntry[]; at: number } | null = null;
  private pending: Promise<PricingEntry[]> | null = null;
  private generation = 0;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly tables: () => PriceTables,
    private readonly now: () => number = Date.now,
  ) {}

  invalidate(): void {
    this.generation++;
    this.cached = null;
    this.pending = null;
  }

  async entries(): Promise<PricingEntry[]> {
    if (this.cached && this.now() - this.cached.at < TTL_MS) return this.cached.entries;
    if (this.pending) return this.pending;
    const generation = this.generation;
    const pending = this.compute().then(
      (entries) => {
        if (generation === this.generation) this.cached = { entries, at: this.now() };
        if (this.pending === pending) this.pending = null;
        return entries;
      },
      (error: unknown) => {
        if (this.pending === pending) this.pending = null;
        throw error;
      },
    );
    this.pending = pending;
    return pending;
  }

  private async compute(): Promise<PricingEntry[]> {
    const abilities = await this.database.db
      .selectFrom('abilities')
      .select(['group', 'model'])
      .distinct()
      .where('enabled', '=', 1)
      .execute();
    return buildPricingEntries(abilities, this.tables());
  }
}
