/**
 * A small, pure multipart/form-data (RFC 7578) parser and writer for the upload endpoints
 * (`/v1/audio/transcriptions`, `/v1/images/edits`). Works on the whole body in memory; the
 * server already bounds body sizes.
 */

/** One part of a form: a text field (no `filename`) or a file. */
export interface MultipartPart {
  readonly name: string;
  /** Present for file parts (may be empty, as some clients send `filename=""`). */
  readonly filename?: string | undefined;
  /** The part's `Content-Type`, if it had one. */
  readonly contentType?: string | undefined;
  readonly data: Uint8Array;
}

/** A parsed form, parts in their original order. */
export interface MultipartForm {
  readonly boundary: string;
  readonly parts: readonly MultipartPart[];
}

/** The body is not a valid multipart form; `message` is safe to show to clients. */
export class MultipartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MultipartError';
  }
}

/** Upper bound on parts, so a hostile body cannot allocate without limit. */
export const MAX_MULTIPART_PARTS = 1000;

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const CRLF = encoder.encode('\r\n');
const HEADER_END = encoder.encode('\r\n\r\n');

/** True when a `Content-Type` value is `multipart/form-data`. */
export function isMultipartContentType(contentType: string | undefined): boolean {
  return contentType !== undefined && /^\s*multipart\/form-data\s*(;|$)/i.test(contentType);
}

/** The `boundary` parameter of a multipart `Content-Type`, or undefined. */
export function readMultipartBoundary(contentType: string | undefined): string | undefined {
  if (!isMultipartContentType(contentType)) return undefined;
  const match = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^\s;]+))/i.exec(contentType ?? '');
  const boundary = match?.[1] ?? match?.[2];
  return boundary !== undefined && boundary.length > 0 && boundary.length <= 200 ? boundary : undefined;
}

/** Parses a multipart/form-data body. Throws {@link MultipartError} with a clear message. */
export function parseMultipart(body: Uint8Array | string, contentType: string | undefined): MultipartForm {
  if (!isMultipartContentType(contentType)) {
    throw new MultipartError('request body must be multipart/form-data');
  }
  const boundary = readMultipartBoundary(contentType);
  if (boundary === undefined) throw new MultipartError('multipart/form-data content type has no boundary');
  const bytes = typeof body === 'string' ? encoder.encode(body) : body;
  const delimiter = encoder.encode(`--${boundary}`);
  let position = indexOf(bytes, delimiter, 0);
  if (position === -1) throw new MultipartError('multipart body does not contain its boundary');
  const separator = concat(CRLF, delimiter);
  const parts: MultipartPart[] = [];
  for (;;) {
    position += delimiter.length;
    // `--` after a delimiter closes the form.
    if (bytes[position] === 45 && bytes[position + 1] === 45) break;
    // Skip transport padding and the line end after the delimiter.
    while (bytes[position] === 32 || bytes[position] === 9) position++;
    if (bytes[position] === 13 && bytes[position + 1] === 10) position += 2;
    else if (bytes[position] === 10) position += 1;
    else throw new MultipartError('multipart body is malformed (no line end after a boundary)');
    const headerEnd = indexOf(bytes, HEADER_END, position);
    const next = indexOf(bytes, separator, position);
    if (next === -1) throw new MultipartError('multipart body ends before its closing boundary');
    let headerText: string;
    let dataStart: number;
    if (headerEnd !== -1 && headerEnd < next) {
      headerText = decoder.decode(bytes.subarray(position, headerEnd));
      dataStart = headerEnd + 4;
    } else if (bytes[position] === 13 && bytes[position + 1] === 10) {
      headerText = '';
      dataStart = position + 2;
    } else {
      throw new MultipartError('multipart part has no header section');
    }
    parts.push(readPart(headerText, bytes.subarray(dataStart, next)));
    if (parts.length > MAX_MULTIPART_PARTS) {
      throw new MultipartError(`multipart body has more than ${MAX_MULTIPART_PARTS} parts`);
    }
    position = next + 2;
  }
  return { boundary, parts };
}

function readPart(headerText: string, data: Uint8Array): MultipartPart {
  let disposition: string | undefined;
  let contentType: string | undefined;
  for (const line of headerText.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon === -1) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-disposition') disposition = value;
    else if (name === 'content-type') contentType = value;
  }
  if (disposition === undefined || !/^form-data\b/i.test(disposition)) {
    throw new MultipartError('multipart part has no "Content-Disposition: form-data" header');
  }
  const name = readParameter(disposition, 'name');
  if (name === undefined || name === '') throw new MultipartError('multipart part has no field name');
  const filename = readParameter(disposition, 'filename');
  return { name, filename, contentType, data };
}

function readParameter(header: string, parameter: string): string | undefined {
  const pattern = new RegExp(`;\\s*${parameter}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, 'i');
  const match = pattern.exec(header);
  if (match === null) return undefined;
  if (match[1] !== undefined) return match[1].replace(/\\(.)/g, '$1');
  return match[2];
}

/** The text of the last part named `name` that is not a file, or undefined. */
export function readMultipartField(form: MultipartForm, name: string): string | undefined {
  for (let index = form.parts.length - 1; index >= 0; index--) {
    const part = form.parts[index]!;
    if (part.name === name && part.filename === undefined) return decoder.decode(part.data);
  }
  return undefined;
}

/** The text fields of a form as a record (the last value wins); file parts are left out. */
export function multipartFields(form: MultipartForm): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const part of form.parts) {
    if (part.filename === undefined) fields[part.name] = decoder.decode(part.data);
  }
  return fields;
}

/** A fresh random boundary. */
export function createMultipartBoundary(): string {
  return `----switchyard-${crypto.randomUUID().replaceAll('-', '')}`;
}

/**
 * Serialises parts as a multipart/form-data body. Returns the body and its `Content-Type`.
 * Names and file names are quoted with `"` and `\` escaped, line breaks are percent-encoded
 * (as browsers do).
 */
export function writeMultipart(
  parts: readonly MultipartPart[],
  boundary: string = createMultipartBoundary(),
): { body: Uint8Array; contentType: string } {
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    let header = `--${boundary}\r\nContent-Disposition: form-data; name="${quote(part.name)}"`;
    if (part.filename !== undefined) header += `; filename="${quote(part.filename)}"`;
    header += '\r\n';
    if (part.contentType !== undefined) header += `Content-Type: ${part.contentType}\r\n`;
    else if (part.filename !== undefined) header += 'Content-Type: application/octet-stream\r\n';
    chunks.push(encoder.encode(`${header}\r\n`), part.data, CRLF);
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`));
  return { body: concat(...chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

function quote(value: string): string {
  return value
    .replaceAll('\\', '\\\\')
    .replaceAll('"', '\\"')
    .replaceAll('\r', '%0D')
    .replaceAll('\n', '%0A');
}

function concat(...chunks: Uint8Array[]): Uint8Array {
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** First index of `needle` in `haystack` at or after `from`; -1 when absent. */
function indexOf(haystack: Uint8Array, needle: Uint8Array, from: number): number {
  const first = needle[0]!;
  const last = haystack.length - needle.length;
  let index = haystack.indexOf(first, from);
  while (index !== -1 && index <= last) {
    let match = true;
    for (let offset = 1; offset < needle.length; offset++) {
      if (haystack[index + offset] !== needle[offset]) {
        match = false;
        break;
      }
    }
    if (match) return index;
    index = haystack.indexOf(first, index + 1);
  }
  return -1;
}
