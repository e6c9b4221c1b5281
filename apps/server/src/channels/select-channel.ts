/** What selection needs to know about a channel. */
export interface RoutableChannel {
  id: number;
  priority: number;
  weight: number;
}

/** Smoothing added to every weight so weight-0 channels still get some traffic (the reference's +10). */
export const WEIGHT_SMOOTHING = 10;

/**
 * Picks the channel for one attempt: among candidates not yet tried in this request, the highest
 * priority tier, then weighted random inside the tier (weight + 10). A failed channel is never
 * picked again in the same request; when a tier is used up the next lower tier is tried.
 * Pure: `random` returns a number in [0, 1).
 */
export function selectChannel<T extends RoutableChannel>(
  candidates: readonly T[],
  excluded: ReadonlySet<number>,
  random: () => number,
): T | undefined {
  let topPriority = Number.NEGATIVE_INFINITY;
  for (const channel of candidates) {
    if (!excluded.has(channel.id) && channel.priority > topPriority) topPriority = channel.priority;
  }
  if (topPriority === Number.NEGATIVE_INFINITY) return undefined;
  let total = 0;
  const tier: T[] = [];
  for (const channel of candidates) {
    if (excluded.has(channel.id) || channel.priority !== topPriority) continue;
    tier.push(channel);
    total += Math.max(0, channel.weight) + WEIGHT_SMOOTHING;
  }
  let point = random() * total;
  for (const channel of tier) {
    point -= Math.max(0, channel.weight) + WEIGHT_SMOOTHING;
    if (point < 0) return channel;
  }
  return tier[tier.length - 1];
}

/** A deterministic random source (mulberry32) for tests and reproducible simulations. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
