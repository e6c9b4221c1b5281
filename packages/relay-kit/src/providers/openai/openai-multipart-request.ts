import type { RelayCall } from '../../spec/relay-call.js';
import { RelayRequestError } from '../../spec/request-error.js';
import {
  isMultipartContentType,
  MultipartError,
  type MultipartPart,
  parseMultipart,
  writeMultipart,
} from '../../util/multipart.js';

const encoder = new TextEncoder();

/** True when the call's body is a multipart form (image edits, transcriptions). */
export function isMultipartCall(call: RelayCall): boolean {
  return isMultipartContentType(call.headers?.['content-type']);
}

/**
 * The body and content type to send for a multipart call. The client's bytes and content type
 * go as they are unless the model changes (channel mapping, or a default model the client did
 * not send) or the channel overrides parameters: then the form is rebuilt with a new boundary,
 * the `model` field replaced (or added first), overridden fields replaced (non-strings as
 * JSON), and every other field and file copied in order.
 */
export function buildMultipartBody(
  call: RelayCall,
  model: string,
  override: Readonly<Record<string, unknown>> | undefined,
): { body: Uint8Array | string; contentType: string } {
  const contentType = call.headers?.['content-type'] ?? '';
  const raw = call.rawBody ?? '';
  const overrideKeys = override === undefined ? [] : Object.keys(override);
  if (call.body.model === model && overrideKeys.length === 0) return { body: raw, contentType };
  let parts: readonly MultipartPart[];
  try {
    parts = parseMultipart(raw, contentType).parts;
  } catch (error) {
    if (error instanceof MultipartError) throw new RelayRequestError('request:invalid_body', error.message);
    throw error;
  }
  const replacements = new Map<string, string>([['model', model]]);
  for (const key of overrideKeys) {
    const value = override![key];
    replacements.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  const out: MultipartPart[] = [];
  const written = new Set<string>();
  for (const part of parts) {
    const replacement = part.filename === undefined ? replacements.get(part.name) : undefined;
    if (replacement === undefined) {
      out.push(part);
      continue;
    }
    // One value per replaced field, where the client first put it.
    if (written.has(part.name)) continue;
    written.add(part.name);
    out.push({ name: part.name, data: encoder.encode(replacement) });
  }
  const added: MultipartPart[] = [];
  for (const [name, value] of replacements) {
    if (!written.has(name)) added.push({ name, data: encoder.encode(value) });
  }
  const rebuilt = writeMultipart([...added, ...out]);
  return { body: rebuilt.body, contentType: rebuilt.contentType };
}
