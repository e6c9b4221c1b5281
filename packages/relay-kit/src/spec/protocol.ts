/**
 * The wire formats Switchyard understands. A protocol names what one HTTP endpoint speaks, on
 * either side of the gateway: clients speak a protocol to Switchyard (parsed by a
 * {@link ProtocolCodec}), and every upstream adapter speaks one or more protocols natively
 * (see `ProviderAdapter.nativeProtocols`).
 *
 * When the client's protocol is native to the selected adapter the gateway forwards the body and
 * pipes the upstream bytes back unchanged (pass-through); otherwise it converts through
 * `StreamPart`s.
 */
export type Protocol =
  /** `POST /v1/chat/completions` */
  | 'openai-chat'
  /** `POST /v1/completions` (legacy text completions, FIM) */
  | 'openai-completions'
  /** `POST /v1/embeddings` */
  | 'openai-embeddings'
  /** `POST /v1/responses` */
  | 'openai-responses'
  /** `POST /v1/moderations` */
  | 'openai-moderations'
  /** `POST /v1/images/generations` */
  | 'openai-images'
  /** `POST /v1/audio/speech` */
  | 'openai-audio-speech'
  /** `POST /v1/audio/transcriptions` and `/v1/audio/translations` (multipart) */
  | 'openai-audio-transcription'
  /** `POST /v1/rerank` (Jina / Cohere shape) */
  | 'rerank'
  /** `POST /v1/messages` (Anthropic Messages) */
  | 'anthropic-messages'
  /** `POST /v1beta/models/{model}:generateContent` and `:streamGenerateContent` */
  | 'gemini'
  /** `POST /v1beta/models/{model}:embedContent` and `:batchEmbedContents` */
  | 'gemini-embeddings';

/** Every protocol, in declaration order (for validation and exhaustive tests). */
export const PROTOCOLS: readonly Protocol[] = [
  'openai-chat',
  'openai-completions',
  'openai-embeddings',
  'openai-responses',
  'openai-moderations',
  'openai-images',
  'openai-audio-speech',
  'openai-audio-transcription',
  'rerank',
  'anthropic-messages',
  'gemini',
  'gemini-embeddings',
];
