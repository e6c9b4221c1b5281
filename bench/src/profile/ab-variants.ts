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
