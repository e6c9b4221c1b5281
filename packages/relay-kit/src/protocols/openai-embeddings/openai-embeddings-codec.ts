import { createNativeOnlyCodec } from '../native-only-codec.js';
import { validateOpenAIEmbeddingsRequest } from './openai-embeddings-schemas.js';

const embeddings = createNativeOnlyCodec('openai-embeddings', '/v1/embeddings', (body, path) =>
  validateOpenAIEmbeddingsRequest(body, path),
);

/**
 * Parses an OpenAI embeddings request (`POST /v1/embeddings`, or the legacy
 * `POST /v1/engines/{model}/embeddings`, whose path gives the model when the body has none; pass
 * the path in `request.path`) into a {@link RelayCall}. Embeddings never stream. The prompt input
 * lists the input texts; token-array inputs are counted by length (`tokenCount`). When the
 * model came from the path, the adapter writes it into the forwarded body.
 */
export const parseOpenAIEmbeddingsRequest = embeddings.parse;

/** The codec for clients of `POST /v1/embeddings` and `POST /v1/engines/{model}/embeddings`. */
export const openAIEmbeddingsCodec = embeddings.codec;
