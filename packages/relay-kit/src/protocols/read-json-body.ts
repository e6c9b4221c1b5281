import type { ClientRequest } from '../spec/protocol-codec.js';
import { RelayRequestError } from '../spec/request-error.js';

const decoder = new TextDecoder();

/**
 * The request body as a JSON object: `request.json` when the server already parsed it, otherwise
 * `rawBody` parsed once. Throws `RelayRequestError` for an empty body, invalid JSON, or JSON that
 * is not an object.
 */
export function readJsonObjectBody(request: ClientRequest): Record<string, unknown> {
  let value = request.json;
  if (value === undefined) {
    const raw = request.rawBody;
    const text = raw === undefined ? '' : typeof raw === 'string' ? raw : decoder.decode(raw);
    if (text.trim() === '') throw new RelayRequestError('request:invalid_json', 'request body is empty');
    try {
      value = JSON.parse(text);
    } catch (error) {
      const detail = error instanceof Error ? `: ${error.message}` : '';
      throw new RelayRequestError('request:invalid_json', `request body is not valid JSON${detail}`);
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RelayRequestError('request:invalid_body', 'request body must be a JSON object');
  }
  return value as Record<string, unknown>;
}
