import type { RelayCall } from '../../spec/relay-call.js';
import { RelayRequestError } from '../../spec/request-error.js';

/** The model and method named by a Gemini request path. */
export interface GeminiPathInfo {
  readonly model: string;
  readonly stream: boolean;
}

const PATH = /^\/(?:v1|v1beta|v1alpha)\/models\/([^/:]+):([A-Za-z]+)\/?$/;

/** The model and method of a Gemini model path (`/v1beta/models/{model}:{method}`). */
export interface GeminiModelMethod {
  readonly model: string;
  readonly method: string;
}

/**
 * Reads `/v1beta/models/{model}:{method}` (also `/v1/` and `/v1alpha/`): the model decoded, the
 * method as written. A path of another shape is refused with 400.
 */
export function parseGeminiModelMethod(path: string | undefined): GeminiModelMethod {
  const match = PATH.exec(path ?? '');
  if (match === null) {
    throw new RelayRequestError(
      'request:invalid_body',
      'the request path must be /v1beta/models/{model}:{method}, e.g. :generateContent',
      { param: 'path' },
    );
  }
  let model: string;
  try {
    model = decodeURIComponent(match[1]!);
  } catch {
    throw new RelayRequestError('request:invalid_body', 'the model name in the path is not valid', {
      param: 'model',
    });
  }
  if (model.trim() === '') {
    throw new RelayRequestError('request:invalid_body', 'the model name in the path must not be empty', {
      param: 'model',
    });
  }
  return { model, method: match[2]! };
}

/**
 * Reads `/v1beta/models/{model}:generateContent` or `:streamGenerateContent`. Another method is
 * refused (the server routes embeddings and token counts to their own codecs first).
 */
export function parseGeminiPath(path: string | undefined): GeminiPathInfo {
  const { model, method } = parseGeminiModelMethod(path);
  if (method === 'generateContent') return { model, stream: false };
  if (method === 'streamGenerateContent') return { model, stream: true };
  throw new RelayRequestError(
    'request:invalid_body',
    `the method "${method}" is not supported; use generateContent, streamGenerateContent, countTokens, embedContent or batchEmbedContents`,
    { param: 'path' },
  );
}

/**
 * True when a streamed Gemini call wants Google's default stream form, a JSON array
 * (`[{…}\n,{…}]`), because the client did not send `alt=sse`. Upstreams are always asked for SSE,
 * so the server must take the conversion path (adapter `toStreamParts` → `geminiCodec.toClientStream`)
 * for such calls even when the channel speaks Gemini natively.
 */
export function geminiWantsJsonArrayStream(call: RelayCall): boolean {
  return call.stream && call.query?.get('alt') !== 'sse';
}
