import { readFileSync } from 'node:fs';

/**
 * Rebuilds an SSE body from a `.chunks.txt` fixture: one event payload per line (JSON, or
 * `[DONE]`), each written as `data: <line>\n\n`. Empty lines are skipped; lines starting with `:`
 * are kept as SSE comments. Fixtures store payloads only so they stay readable and diffable.
 */
export function chunksToSse(fixtureText: string): string {
  let out = '';
  for (const line of fixtureText.split('\n')) {
    const payload = line.trimEnd();
    if (payload === '') continue;
    out += payload.startsWith(':') ? `${payload}\n\n` : `data: ${payload}\n\n`;
  }
  return out;
}

/** Reads a `.chunks.txt` fixture (path or `URL`) and returns its SSE body text. */
export function loadChunksFixture(path: string | URL): string {
  return chunksToSse(readFileSync(path, 'utf8'));
}

/** Reads a JSON fixture (path or `URL`). */
export function loadJsonFixture<T = unknown>(path: string | URL): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/** UTF-8 bytes of a text. */
export function toBytes(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** Splits bytes into chunks of `size` bytes (the last may be shorter); ignores UTF-8 boundaries. */
export function splitEvery(bytes: Uint8Array, size: number): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  for (let offset = 0; offset < bytes.length; offset += size) chunks.push(bytes.slice(offset, offset + size));
  return chunks;
}

/** Splits bytes at the given offsets (ascending). */
export function splitAt(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const offset of offsets) {
    chunks.push(bytes.slice(start, offset));
    start = offset;
  }
  chunks.push(bytes.slice(start));
  return chunks;
}

/** A `ReadableStream` that yields the given chunks, like an upstream response body. */
export function streamOf<T>(chunks: readonly T[]): ReadableStream<T> {
  let index = 0;
  return new ReadableStream<T>({
    pull(controller) {
      if (index < chunks.length) controller.enqueue(chunks[index++]!);
      else controller.close();
    },
  });
}

/** Reads a whole stream into an array. */
export async function collectStream<T>(stream: ReadableStream<T>): Promise<T[]> {
  const items: T[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return items;
    items.push(value);
  }
}

/** Reads a byte stream and decodes it as UTF-8 text. */
export async function collectText(stream: ReadableStream<Uint8Array>): Promise<string> {
  const chunks = await collectStream(stream);
  const decoder = new TextDecoder();
  let text = '';
  for (const chunk of chunks) text += decoder.decode(chunk, { stream: true });
  return text + decoder.decode();
}
