import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('.', import.meta.url));
const FORBIDDEN = [
  /^fastify/,
  /^@fastify\//,
  /^kysely/,
  /^better-sqlite3/,
  /^pg$/,
  /^mysql2/,
  /^ioredis/,
  /^undici/,
  /^@switchyard\/server/,
  /apps\//,
];
// Production code may import only these packages (tests and testing helpers may also use node:).
// node:crypto is pure computation (request signing: SigV4, JWTs), never I/O.
const ALLOWED_PACKAGES = [/^eventsource-parser$/, /^node:module$/, /^node:crypto$/];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === '__fixtures__' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => match[1]!);
}

describe('relay-kit boundaries', () => {
  const files = sourceFiles(root);

  it('never imports the server, the database, Redis or the HTTP client', () => {
    for (const file of files) {
      for (const specifier of importsOf(file)) {
        expect(
          FORBIDDEN.some((pattern) => pattern.test(specifier)),
          `${file} imports ${specifier}`,
        ).toBe(false);
      }
    }
  });

  it('keeps production dependencies to the declared few', () => {
    const production = files.filter((file) => !file.endsWith('.test.ts') && !file.includes('/testing/'));
    for (const file of production) {
      for (const specifier of importsOf(file)) {
        if (specifier.startsWith('.')) continue;
        expect(
          ALLOWED_PACKAGES.some((pattern) => pattern.test(specifier)),
          `${file} imports ${specifier}`,
        ).toBe(true);
      }
    }
  });
});
