import { createNativeOnlyCodec } from '../native-only-codec.js';
import { validateOpenAIModerationsRequest } from './openai-moderations-schemas.js';

const moderations = createNativeOnlyCodec('openai-moderations', '/v1/moderations', (body) =>
  validateOpenAIModerationsRequest(body),
);

/**
 * Parses an OpenAI moderations request (`POST /v1/moderations`) into a {@link RelayCall}. A
 * request without a model is billed as `text-moderation-stable`; the adapter then writes that
 * name into the forwarded body. Moderations never stream. The prompt input lists the input's
 * texts.
 */
export const parseOpenAIModerationsRequest = moderations.parse;

/** The codec for clients of `POST /v1/moderations`. */
export const openAIModerationsCodec = moderations.codec;
