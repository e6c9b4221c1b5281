/**
 * The bytes a pass-through may still forward when an event in `out` turned out to be malformed:
 * everything up to the end of the line carrying that event's `data` (found by its text; when the
 * line began in an earlier chunk, the first line end). A newline byte never occurs inside a UTF-8
 * sequence, so the cut is always on a character boundary.
 */
export function cutAfterEvent(out: Uint8Array, data: string): Uint8Array {
  const bytes = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  const needle = data === '' ? -1 : bytes.indexOf(data);
  const from = needle === -1 ? 0 : needle + Buffer.byteLength(data);
  const newline = bytes.indexOf(10, from);
  return newline === -1 ? out : out.subarray(0, newline + 1);
}
