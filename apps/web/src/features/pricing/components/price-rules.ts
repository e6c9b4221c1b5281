import { type PricingEntry, PricingQuotaType } from '@switchyard/shared';

/** Ratio tag colours: over 5 red, over 3 orange, over 1 blue, otherwise green. */
export function ratioTagColor(ratio: number): string {
  if (ratio > 5) return 'red';
  if (ratio > 3) return 'orange';
  if (ratio > 1) return 'blue';
  return 'green';
}

export type DisplayedPrice =
  | { kind: 'tokens'; prompt: number; completion: number }
  | { kind: 'call'; price: number };

/**
 * Prices shown for a model in a group: per 1M tokens the prompt price is model ratio × 2 × group
 * ratio and the completion price that times the completion ratio; per-call models show the price
 * times the group ratio. Dollars.
 */
export function displayedPrice(entry: PricingEntry, groupRatio: number): DisplayedPrice {
  if (entry.quota_type === PricingQuotaType.Price) {
    return { kind: 'call', price: entry.model_price * groupRatio };
  }
  const prompt = entry.model_ratio * 2 * groupRatio;
  return { kind: 'tokens', prompt, completion: prompt * entry.completion_ratio };
}

/**
 * Fuzzy model search: every character of the query appears in the name in order, ignoring case
 * and spaces ("4omini" finds gpt-4o-mini). An empty query matches everything.
 */
export function fuzzyMatch(query: string, name: string): boolean {
  const needle = query.toLowerCase().replace(/\s+/g, '');
  if (needle === '') return true;
  const haystack = name.toLowerCase();
  let position = 0;
  for (const character of needle) {
    position = haystack.indexOf(character, position);
    if (position === -1) return false;
    position += 1;
  }
  return true;
}

/** The group whose ratio applies: the user's group when it is usable, else default, else the first. */
export function pickGroup(groupRatio: Record<string, number>, userGroup: string | undefined): string {
  if (userGroup && userGroup in groupRatio) return userGroup;
  if ('default' in groupRatio) return 'default';
  return Object.keys(groupRatio)[0] ?? 'default';
}
