import { median } from '../saturation-rounds.ts';
/** One variant of an A/B run: its name and the extra environment of the process under test. */
export interface Variant {
  name: string;
  env: Record<string, string>;
}

/**
 * Parses AB_VARIANTS: `name:KEY=value,KEY=value|name:...`; a name alone (or `name:`) is the
 * defaults. Empty parts are skipped; a pair without `=` is ignored.
 */
export function parseVariants(text: string): Variant[] {
  return text
    .split('|')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const colon = part.indexOf(':');
      const name = colon === -1 ? part : part.slice(0, colon);
      const env: Record<string, string> = {};
      for (const pair of (colon === -1 ? '' : part.slice(colon + 1)).split(',')) {
        const equals = pair.indexOf('=');
        if (equals > 0) env[pair.slice(0, equals).trim()] = pair.slice(equals + 1).trim();
      }
      return { name, env };
    });
}

/**
 * Each variant's values against the first variant's, round by round (the same index in both
 * lists: the same round and window), and the median of those ratios. The machine's speed drifts
 * by ±10% within minutes, so two variants' medians taken over a whole sitting can differ by more
 * than the change measured; a ratio within one round is taken a few seconds apart.
 */
export function pairedRatios(
  results: ReadonlyMap<string, readonly number[]>,
): Array<{ name: string; ratios: number[]; median: number }> {
  const [first, ...others] = [...results.entries()];
  if (!first) return [];
  return others.map(([name, values]) => {
    const ratios = values
      .map((value, index) => value / first[1][index]!)
      .filter((ratio) => Number.isFinite(ratio));
    return { name, ratios, median: median(ratios) };
  });
}
