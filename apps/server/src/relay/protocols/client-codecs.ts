import {
  anthropicMessagesCodec,
  geminiCodec,
  openAIImagesCodec,
  openAIResponsesCodec,
  openAISpeechCodec,
  openAITranscriptionCodec,
  type ProtocolCodec,
  rerankCodec,
} from '@switchyard/relay-kit';

/**
 * Relay routes served by the client protocols beyond the OpenAI text endpoints: path → codec.
 * Gemini paths carry the model and method (`/v1beta/models/gemini-2.0-flash:generateContent`),
 * so they are wildcard routes the codec reads.
 */
export const CLIENT_CODECS: ReadonlyArray<readonly [path: string, codec: ProtocolCodec]> = [
  ['/v1/messages', anthropicMessagesCodec],
  ['/v1beta/models/*', geminiCodec],
  ['/v1/models/*', geminiCodec],
  ['/v1/responses', openAIResponsesCodec],
  ['/v1/images/generations', openAIImagesCodec],
  ['/v1/images/edits', openAIImagesCodec],
  ['/v1/audio/speech', openAISpeechCodec],
  ['/v1/audio/transcriptions', openAITranscriptionCodec],
  ['/v1/audio/translations', openAITranscriptionCodec],
  ['/v1/rerank', rerankCodec],
];
