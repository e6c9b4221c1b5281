import { isRecord } from '../../providers/gemini/gemini-api.js';
import type { PromptInput } from '../../spec/prompt-input.js';
import type { ClientError, ClientRequest, ProtocolCodec } from '../../spec/protocol-codec.js';
import type { RelayCall } from '../../spec/relay-call.js';
import { RelayRequestError } from '../../spec/request-error.js';
import { readJsonObjectBody } from '../read-json-body.js';
import { parseGeminiModelMethod } from './gemini-path.js';
import { formatGeminiErrorBody } from './gemini-wire.js';

/** The Gemini embedding methods. */
export const GEMINI_EMBEDDING_METHODS: ReadonlySet<string> = new Set(['embedContent', 'batchEmbedContents']);

/**
 * Parses `:embedContent` (`{content}`) and `:batchEmbedContents` (`{requests: [{content}]}`):
 * model from the path, every content's text as the prompt (Gemini answers embeddings without
 * usage, so they are billed by the local count), raw bytes kept for pass-through.
 */
export function parseGeminiEmbeddingsRequest(request: ClientRequest): RelayCall {
  const { model, method } = parseGeminiModelMethod(request.path);
  if (!GEMINI_EMBEDDING_METHODS.has(method)) {
    throw new RelayRequestError('request:invalid_body', `"${method}" is not an embedding method`, {
      param: 'path',
    });
  }
  const body = readJsonObjectBody(request);
  const texts = method === 'embedContent' ? [contentText(body, '')] : batchTexts(body);
  const prompt: PromptInput = { messages: texts.map((text) => ({ role: 'user', content: text })) };
  return {
    protocol: 'gemini-embeddings',
    model,
    upstreamModel: model,
    stream: false,
    includeUsage: false,
    maxTokens: undefined,
    body,
    rawBody: request.rawBody,
    path: request.path,
    query: request.query,
    prompt,
  };
}

function batchTexts(body: Record<string, unknown>): string[] {
  const requests = body.requests;
  if (!Array.isArray(requests) || requests.length === 0) {
    invalid('requests', '"requests" must be a non-empty array of embedding requests');
  }
  return requests.map((request: unknown, index) => {
    if (!isRecord(request)) invalid(`requests[${index}]`, `requests[${index}] must be an object`);
    return contentText(request, `requests[${index}].`);
  });
}

/** The text of a request's `content` (its text parts joined by newlines). */
function contentText(request: Record<string, unknown>, prefix: string): string {
  const content = request.content;
  if (!isRecord(content) || !Array.isArray(content.parts)) {
    invalid(`${prefix}content`, `"${prefix}content" must be a content with "parts"`);
  }
  const texts: string[] = [];
  content.parts.forEach((part: unknown, index) => {
    if (!isRecord(part) || typeof part.text !== 'string') {
      invalid(`${prefix}content.parts[${index}]`, `${prefix}content.parts[${index}] must be a text part`);
    }
    texts.push(part.text);
  });
  return texts.join('\n');
}

function invalid(param: string, message: string): never {
  throw new RelayRequestError('request:invalid_body', message, { param });
}

/**
 * The `/v1/embeddings` call for upstreams that serve OpenAI's embeddings: one input per content,
 * `outputDimensionality` (of the first request) as `dimensions`, floats asked for.
 */
export function geminiToEmbeddingsCall(call: RelayCall): RelayCall {
  const input = (call.prompt.messages ?? []).map((message) => String(message.content));
  const first = Array.isArray(call.body.requests) ? call.body.requests[0] : call.body;
  const body: Record<string, unknown> = { model: call.upstreamModel, input, encoding_format: 'float' };
  const dimensions = isRecord(first) ? first.outputDimensionality : undefined;
  if (typeof dimensions === 'number') body.dimensions = dimensions;
  return {
    protocol: 'openai-embeddings',
    model: call.model,
    upstreamModel: call.upstreamModel,
    stream: false,
    includeUsage: false,
    maxTokens: undefined,
    body,
    rawBody: undefined,
    path: '/v1/embeddings',
    prompt: call.prompt,
  };
}

/** A `/v1/embeddings` answer as Gemini's: `{embedding: {values}}` or `{embeddings: [{values}]}`. */
export function geminiFromEmbeddingsAnswer(text: string, call: RelayCall): string {
  const parsed: unknown = JSON.parse(text);
  const data = isRecord(parsed) && Array.isArray(parsed.data) ? parsed.data : [];
  const vectors = data
    .filter(isRecord)
    .sort((a, b) => Number(a.index ?? 0) - Number(b.index ?? 0))
    .map((item) => ({ values: Array.isArray(item.embedding) ? item.embedding : [] }));
  if (call.path?.endsWith(':embedContent'))
    return JSON.stringify({ embedding: vectors[0] ?? { values: [] } });
  return JSON.stringify({ embeddings: vectors });
}

const notStreamed = (): never => {
  throw new RelayRequestError('request:invalid_body', 'Gemini embeddings are not streamed');
};

/** The codec for clients of Gemini's `:embedContent` and `:batchEmbedContents`. */
export const geminiEmbeddingsCodec: ProtocolCodec = {
  protocol: 'gemini-embeddings',
  parseRequest: parseGeminiEmbeddingsRequest,
  toEmbeddingsCall: geminiToEmbeddingsCall,
  fromEmbeddingsAnswer: geminiFromEmbeddingsAnswer,
  formatError: (error: ClientError) => formatGeminiErrorBody(error),
  formatStreamError: (error: ClientError) => formatGeminiErrorBody(error),
  toClientResponse: notStreamed,
  toClientStream: notStreamed,
};
