import { createHash } from 'node:crypto';

/** Dimensions of an embedding when the request does not ask for a size. */
export const defaultEmbeddingDimensions = 16;
/** The largest vector the mock produces. */
export const maxEmbeddingDimensions = 4096;

/**
 * A unit-length float32 vector derived only from `text` (SHA-256 seeds a xorshift32 generator),
 * so the same input always embeds to the same vector and different inputs almost never collide.
 */
export function buildEmbeddingVector(text: string, dimensions: number): Float32Array {
  const digest = createHash('sha256').update(text).digest();
  let state = digest.readUInt32LE(0) || 0x9e3779b9;
  const vector = new Float32Array(dimensions);
  let sumOfSquares = 0;
  for (let index = 0; index < dimensions; index++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    const value = (state / 0xffffffff) * 2 - 1;
    vector[index] = value;
    sumOfSquares += value * value;
  }
  const norm = Math.sqrt(sumOfSquares) || 1;
  for (let index = 0; index < dimensions; index++) vector[index] = (vector[index] ?? 0) / norm;
  return vector;
}

/** The vector as OpenAI's `encoding_format: "base64"` sends it: little-endian float32 bytes. */
export function encodeVectorAsBase64(vector: Float32Array): string {
  return Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64');
}

/** Clamps a requested dimension count into `1..maxEmbeddingDimensions`, defaulting when absent. */
export function readDimensions(requested: unknown): number {
  if (typeof requested !== 'number' || !Number.isFinite(requested)) return defaultEmbeddingDimensions;
  return Math.min(Math.max(1, Math.floor(requested)), maxEmbeddingDimensions);
}
