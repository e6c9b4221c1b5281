/** One part of a `multipart/form-data` body: a field (`filename` absent) or a file. */
export interface FormPart {
  readonly name: string;
  readonly filename: string | undefined;
  readonly contentType: string | undefined;
  readonly data: Buffer;
}

/** A parsed form: its parts in order, and the text of the first field of each name. */
export interface ParsedForm {
  readonly parts: readonly FormPart[];
  readonly fields: ReadonlyMap<string, string>;
}

const headerEnd = Buffer.from('\r\n\r\n');

/** The boundary of a `multipart/form-data` content type, or `undefined` when it is not one. */
export function readBoundary(contentType: string | undefined): string | undefined {
  if (contentType === undefined || !/^multipart\/form-data\s*;/i.test(contentType)) return undefined;
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

/**
 * Parses a `multipart/form-data` body (RFC 7578) from its bytes. Returns `undefined` when the
 * content type has no boundary or the body is not a well-formed form (no closing delimiter,
 * parts without `Content-Disposition: form-data; name=...`), so handlers can answer a 400.
 */
export function parseMultipartForm(body: Buffer, contentType: string | undefined): ParsedForm | undefined {
  const boundary = readBoundary(contentType);
  if (boundary === undefined) return undefined;
  const delimiter = Buffer.from(`--${boundary}`);
  let offset = body.indexOf(delimiter);
  if (offset === -1) return undefined;
  const parts: FormPart[] = [];
  const fields = new Map<string, string>();
  for (;;) {
    offset += delimiter.length;
    if (body.subarray(offset, offset + 2).toString('latin1') === '--') break;
    if (body.subarray(offset, offset + 2).toString('latin1') !== '\r\n') return undefined;
    const headersStart = offset + 2;
    const headersEnd = body.indexOf(headerEnd, headersStart);
    if (headersEnd === -1) return undefined;
    const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headersEnd + 4);
    if (next === -1) return undefined;
    const headers = body.subarray(headersStart, headersEnd).toString('utf8');
    const disposition = /^content-disposition:\s*form-data(.*)$/im.exec(headers)?.[1];
    const name = disposition === undefined ? undefined : /;\s*name="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined) return undefined;
    const filename = /;\s*filename="([^"]*)"/i.exec(disposition ?? '')?.[1];
    const partType = /^content-type:\s*(.+)$/im.exec(headers)?.[1]?.trim();
    const data = body.subarray(headersEnd + 4, next);
    parts.push({ name, filename, contentType: partType, data });
    if (filename === undefined && !fields.has(name)) fields.set(name, data.toString('utf8'));
    offset = next + 2;
  }
  return { parts, fields };
}
