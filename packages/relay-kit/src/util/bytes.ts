/** Shared empty chunk; never mutate. */
export const NO_BYTES: Uint8Array = new Uint8Array(0);

/** Concatenates byte chunks; returns the only chunk itself (no copy) when there is one. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 0) return NO_BYTES;
  if (parts.length === 1) return parts[0]!;
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
