import type { ClientRequest } from '../../spec/protocol-codec.js';
import type { RelayCall } from '../../spec/relay-call.js';
import { describe } from '../openai-chat/openai-chat-schemas.js';
import { invalidField, readModelField } from '../openai-completions/openai-request-fields.js';
import {
  jsonMediaCall,
  mediaCodec,
  readOptionalInteger,
  readRequiredString,
} from '../openai-images/media-request.js';
import { readJsonObjectBody } from '../read-json-body.js';

/** Most documents one rerank request may carry. */
export const MAX_RERANK_DOCUMENTS = 10_000;

/**
 * Parses `POST /v1/rerank` (Jina / Cohere shape): `model` and `query` (non-empty strings) are
 * required; `documents` is a non-empty array of strings or objects with a `text` string (Jina
 * also accepts other object documents, counted by their JSON); `top_n` is a positive integer;
 * `return_documents` a boolean. Never streams. The prompt input is the query plus every
 * document's text, for the local token estimate (the reference bills rerank with the text
 * formula, completion 0).
 */
export function parseRerankRequest(request: ClientRequest): RelayCall {
  const body = readJsonObjectBody(request);
  const model = readModelField(body);
  const query = readRequiredString(body, 'query');
  const documents = body.documents;
  if (documents === undefined || documents === null) invalidField('documents', '"documents" is required');
  if (!Array.isArray(documents)) {
    invalidField('documents', `"documents" must be an array, got ${describe(documents)}`);
  }
  if (documents.length === 0) invalidField('documents', '"documents" must not be empty');
  if (documents.length > MAX_RERANK_DOCUMENTS) {
    invalidField('documents', `"documents" must have at most ${MAX_RERANK_DOCUMENTS} entries`);
  }
  const texts: string[] = [query];
  documents.forEach((document: unknown, index: number) => {
    if (typeof document === 'string') texts.push(document);
    else if (typeof document === 'object' && document !== null && !Array.isArray(document)) {
      const text = (document as { text?: unknown }).text;
      texts.push(typeof text === 'string' ? text : JSON.stringify(document));
    } else {
      invalidField(
        `documents[${index}]`,
        `documents[${index}] must be a string or an object, got ${describe(document)}`,
      );
    }
  });
  readOptionalInteger(body, 'top_n', 1, Number.MAX_SAFE_INTEGER, false);
  const returnDocuments = body.return_documents;
  if (returnDocuments !== undefined && returnDocuments !== null && typeof returnDocuments !== 'boolean') {
    invalidField(
      'return_documents',
      `"return_documents" must be a boolean, got ${describe(returnDocuments)}`,
    );
  }
  return jsonMediaCall('rerank', request, body, { model, prompt: { texts } });
}

/** The codec for clients of `POST /v1/rerank`. */
export const rerankCodec = mediaCodec('rerank', '/v1/rerank', parseRerankRequest);
