import { describe, expect, it } from 'vitest';

/**
 * Folder rule (see README.md): a feature imports only from lib/, components/ and itself, never
 * from another feature or from app/ (composition lives in app/). Enforced here because the
 * repository's linter has no path-restriction rule for apps/web.
 */
const sources = import.meta.glob<string>(['./**/*.ts', './**/*.tsx', '!./**/*.test.ts', '!./**/*.test.tsx'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** Resolves a relative specifier of `./<feature>/...` (relative to src/features) to a src/ path. */
function resolve(from: string, specifier: string): string {
  const parts = ['src', 'features', ...from.split('/').slice(1, -1)];
  for (const segment of specifier.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '.') parts.push(segment);
  }
  return parts.join('/');
}

describe('feature boundaries', () => {
  it('found the feature sources', () => {
    expect(Object.keys(sources).length).toBeGreaterThan(10);
  });

  it('has no imports across features or into app/', () => {
    const violations: string[] = [];
    for (const [file, text] of Object.entries(sources)) {
      const feature = file.split('/')[1];
      for (const match of text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)) {
        const target = resolve(file, match[1] as string);
        const [, top, ownerFeature] = target.split('/');
        const crossFeature = top === 'features' && ownerFeature !== feature;
        if (top === 'app' || crossFeature) violations.push(`${file} → ${match[1]}`);
      }
    }
    expect(violations).toEqual([]);
  });
});
