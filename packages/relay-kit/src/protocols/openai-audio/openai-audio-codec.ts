import type { ClientRequest } from '../../spec/protocol-codec.js';
import type { RelayCall } from '../../spec/relay-call.js';
import { invalidField, readModelField } from '../openai-completions/openai-request-fields.js';
import {
  jsonMediaCall,
  mediaCodec,
  parseMultipartCall,
  readOptionalString,
  readRequiredString,
} from '../openai-images/media-request.js';
import { uploadBytes } from '../openai-images/openai-images-codec.js';
import { readJsonObjectBody } from '../read-json-body.js';

/** The model billed when a speech request names none. */
export const DEFAULT_SPEECH_MODEL = 'tts-1';
/** The model billed when a transcription or translation request names none. */
export const DEFAULT_TRANSCRIPTION_MODEL = 'whisper-1';
/** OpenAI's limit on speech input. */
export const MAX_SPEECH_INPUT_CHARS = 4096;

/**
 * Parses `POST /v1/audio/speech` (JSON; the upstream answers with audio bytes, relayed as they
 * are). `model` defaults to `tts-1`; `input` is required (at most 4096 characters); `voice` and
 * `response_format`, when present, must be strings. `call.quantities.inputCharacters` is the
 * number of Unicode code points of `input` (the reference bills `tts*` models by characters);
 * the prompt input is the text, for models billed by tokens.
 */
export function parseOpenAISpeechRequest(request: ClientRequest): RelayCall {
  const body = readJsonObjectBody(request);
  const model = readModelField(body, DEFAULT_SPEECH_MODEL);
  const input = readRequiredString(body, 'input');
  const characters = countCodePoints(input);
  if (characters > MAX_SPEECH_INPUT_CHARS) {
    invalidField('input', `"input" must be at most ${MAX_SPEECH_INPUT_CHARS} characters`);
  }
  readOptionalString(body, 'voice');
  readOptionalString(body, 'response_format');
  readOptionalString(body, 'instructions');
  const speed = body.speed;
  if (speed !== undefined && speed !== null && (typeof speed !== 'number' || !Number.isFinite(speed))) {
    invalidField('speed', '"speed" must be a number');
  }
  return jsonMediaCall('openai-audio-speech', request, body, {
    model,
    prompt: { texts: [input] },
    quantities: { inputCharacters: characters },
  });
}

/**
 * Parses `POST /v1/audio/transcriptions` and `POST /v1/audio/translations` (multipart; the
 * adapter picks the endpoint from `call.path`). `model` defaults to `whisper-1`; a `file` part
 * is required; `prompt` (optional) is the prompt input. `call.quantities.uploadBytes` is the
 * audio file size. Usage comes from the upstream's answer (see `readTranscriptionUsage`).
 */
export function parseOpenAITranscriptionRequest(request: ClientRequest): RelayCall {
  return parseMultipartCall('openai-audio-transcription', request, (fields, form) => {
    const model = readModelField(fields, DEFAULT_TRANSCRIPTION_MODEL);
    const file = form.parts.find((part) => part.name === 'file' && part.filename !== undefined);
    if (file === undefined) invalidField('file', '"file" is required (an audio file part)');
    if (file.data.length === 0) invalidField('file', '"file" must not be empty');
    const prompt = readOptionalString(fields, 'prompt');
    return {
      model,
      prompt: { texts: prompt === undefined ? [] : [prompt] },
      quantities: { uploadBytes: uploadBytes(form) },
    };
  });
}

/** True for `/v1/audio/translations` (with or without a trailing slash). */
export function isTranslationPath(path: string | undefined): boolean {
  return path !== undefined && /\/audio\/translations\/?$/.test(path);
}

function countCodePoints(text: string): number {
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    // A high surrogate followed by a low one is one code point.
    if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      const next = text.charCodeAt(index + 1);
      if (next >= 0xdc00 && next <= 0xdfff) index++;
    }
    count++;
  }
  return count;
}

/** The codec for clients of `POST /v1/audio/speech`. */
export const openAISpeechCodec = mediaCodec(
  'openai-audio-speech',
  '/v1/audio/speech',
  parseOpenAISpeechRequest,
);

/** The codec for clients of `POST /v1/audio/transcriptions` and `POST /v1/audio/translations`. */
export const openAITranscriptionCodec = mediaCodec(
  'openai-audio-transcription',
  '/v1/audio/transcriptions',
  parseOpenAITranscriptionRequest,
);
