import type { PromptInput } from '../../spec/prompt-input.js';
import type { Protocol } from '../../spec/protocol.js';
import type { ClientError, ClientRequest, ProtocolCodec } from '../../spec/protocol-codec.js';
import type { RelayCall, RelayQuantities } from '../../spec/relay-call.js';
import { RelayRequestError } from '../../spec/request-error.js';
import { MultipartError, type MultipartForm, multipartFields, parseMultipart } from '../../util/multipart.js';
import { describe } from '../openai-chat/openai-chat-schemas.js';
import { formatOpenAIErrorBody } from '../openai-chat/openai-chat-wire.js';
import { invalidField } from '../openai-completions/openai-request-fields.js';

/** What a media request validator extracts. */
export interface MediaFields {
  readonly model: string;
  readonly prompt: PromptInput;
  readonly quantities?: RelayQuantities | undefined;
}

/** The client's `Content-Type` header (first value), if any. */
export function readContentType(request: ClientRequest): string | undefined {
  const value = request.headers?.['content-type'];
  return Array.isArray(value) ? value[0] : (value as string | undefined);
}

/**
 * Parses a multipart/form-data request (image edits, transcriptions) into a call: `body` holds
 * the text fields (the last value of a repeated field wins; files are left out), `rawBody` the
 * bytes as received, and `headers['content-type']` the client's content type with its boundary,
 * which the adapter forwards with the bytes (or replaces when it rebuilds the form).
 */
export function parseMultipartCall(
  protocol: Protocol,
  request: ClientRequest,
  validate: (fields: Readonly<Record<string, string>>, form: MultipartForm) => MediaFields,
): RelayCall {
  const contentType = readContentType(request);
  const raw = request.rawBody;
  if (raw === undefined || raw.length === 0) {
    throw new RelayRequestError('request:invalid_body', 'request body is empty');
  }
  let form: MultipartForm;
  try {
    form = parseMultipart(raw, contentType);
  } catch (error) {
    if (error instanceof MultipartError) throw new RelayRequestError('request:invalid_body', error.message);
    throw error;
  }
  const fields = multipartFields(form);
  const result = validate(fields, form);
  return {
    protocol,
    model: result.model,
    upstreamModel: result.model,
    stream: false,
    includeUsage: false,
    maxTokens: undefined,
    body: fields,
    rawBody: raw,
    path: request.path,
    headers: { 'content-type': contentType ?? '' },
    prompt: result.prompt,
    quantities: result.quantities,
  };
}

/** A JSON media call (image generations, speech, rerank). */
export function jsonMediaCall(
  protocol: Protocol,
  request: ClientRequest,
  body: Record<string, unknown>,
  fields: MediaFields,
): RelayCall {
  return {
    protocol,
    model: fields.model,
    upstreamModel: fields.model,
    stream: false,
    includeUsage: false,
    maxTokens: undefined,
    body,
    rawBody: request.rawBody,
    path: request.path,
    prompt: fields.prompt,
    quantities: fields.quantities,
  };
}

/**
 * A codec for a protocol relayed only by pass-through (its responses have no protocol-neutral
 * form): OpenAI error bodies, conversion refused with a clear message.
 */
export function mediaCodec(
  protocol: Protocol,
  endpoint: string,
  parse: (request: ClientRequest) => RelayCall,
): ProtocolCodec {
  const notConvertible = (): never => {
    throw new RelayRequestError(
      'request:unsupported_protocol',
      `${protocol} responses cannot be converted from another protocol; use a channel that serves ${endpoint}`,
    );
  };
  return {
    protocol,
    parseRequest: parse,
    formatError: (error: ClientError) => formatOpenAIErrorBody(error),
    formatStreamError: (error: ClientError) => `data: ${formatOpenAIErrorBody(error)}\n\n`,
    toClientResponse: notConvertible,
    toClientStream: notConvertible,
  };
}

/**
 * Reads a required non-empty string field. Multipart fields are always strings; JSON fields must
 * be strings.
 */
export function readRequiredString(record: Readonly<Record<string, unknown>>, field: string): string {
  const value = record[field];
  if (value === undefined || value === null) invalidField(field, `"${field}" is required`);
  if (typeof value !== 'string') invalidField(field, `"${field}" must be a string, got ${describe(value)}`);
  if (value.trim() === '') invalidField(field, `"${field}" must not be empty`);
  return value;
}

/** Reads an optional string field (`null` and `""` mean absent). */
export function readOptionalString(
  record: Readonly<Record<string, unknown>>,
  field: string,
): string | undefined {
  const value = record[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') invalidField(field, `"${field}" must be a string, got ${describe(value)}`);
  return value;
}

/**
 * Reads an optional integer within `[min, max]`. Multipart forms send numbers as text, so a
 * decimal string is accepted when `fromText` is set.
 */
export function readOptionalInteger(
  record: Readonly<Record<string, unknown>>,
  field: string,
  min: number,
  max: number,
  fromText: boolean,
): number | undefined {
  let value = record[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (fromText && typeof value === 'string' && /^\s*-?\d+\s*$/.test(value)) value = Number(value);
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    invalidField(field, `"${field}" must be an integer, got ${describe(value)}`);
  }
  if (value < min || value > max) invalidField(field, `"${field}" must be between ${min} and ${max}`);
  return value;
}
