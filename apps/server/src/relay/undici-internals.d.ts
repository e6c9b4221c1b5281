/**
 * The one undici internal Switchyard uses (undici has no `exports` map, so the file can be
 * imported; the version is pinned by the lock file and `upstream-answer.test.ts` checks what it gives).
 */
declare module 'undici/lib/core/util.js' {
  /** A header name in lower case: well-known names by a lookup of their bytes, others converted. */
  export function headerNameToString(value: Buffer | string): string;
  /** undici's own reading of a raw header list (the tests compare `headersOf` with it). */
  export function parseHeaders(headers: ReadonlyArray<Buffer | string>): Record<string, string | string[]>;
}
