import type { ProtocolCodec } from '@switchyard/relay-kit';

/**
 * Relay routes served by the client protocols beyond the OpenAI text endpoints: path → codec.
 * Gemini paths carry the model and method (`/v1beta/models/gemini-2.0-flash:generateContent`).
 */
export const CLIENT_CODECS: ReadonlyArray<readonly [path: string, codec: ProtocolCodec]> = [];
