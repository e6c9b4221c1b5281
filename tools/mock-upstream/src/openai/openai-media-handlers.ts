import type { ServerResponse } from 'node:http';
import { type MockRequestContext, nowSeconds } from '../mock-request-context.ts';
import { sendProtocolError } from '../protocol-errors.ts';
import { pause, sendBody } from '../response-writer.ts';
import { sendResultJson } from '../scenario-json-writer.ts';
import { countWords } from '../word-count.ts';

/** A 1×1 PNG, the picture behind every generated image. */
export const mockPngBase64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const mockPngBytes = Buffer.from(mockPngBase64, 'base64');
/** Where `response_format: "url"` images are served from (by the mock itself). */
export const mockImagePath = '/__files/mock-image.png';

/**
 * `POST /v1/images/generations`. `gpt-image-*` models answer like gpt-image-1 (always
 * `b64_json`, token usage); other models like DALL·E (`url` by default, `revised_prompt`).
 */
export async function handleOpenAiImageGeneration(context: MockRequestContext): Promise<void> {
  const { body, response, scenario } = context;
  if (typeof body.prompt !== 'string' || body.prompt === '') {
    sendProtocolError(response, 'openai', {
      status: 400,
      message: "Missing required parameter: 'prompt'.",
      param: 'prompt',
      code: 'missing_required_parameter',
    });
    return;
  }
  const model = typeof body.model === 'string' ? body.model : 'dall-e-2';
  const count = typeof body.n === 'number' ? Math.min(Math.max(1, Math.floor(body.n)), 10) : 1;
  const imageTokenModel = model.startsWith('gpt-image');
  const asBase64 = imageTokenModel || body.response_format === 'b64_json';
  const data = [];
  for (let index = 0; index < count; index++) {
    const image: Record<string, unknown> = asBase64
      ? { b64_json: mockPngBase64 }
      : { url: `${context.origin}${mockImagePath}` };
    if (model === 'dall-e-3') image.revised_prompt = body.prompt;
    data.push(image);
  }
  const result: Record<string, unknown> = { created: nowSeconds(), data };
  if (imageTokenModel && !scenario.noUsage) {
    const textTokens = countWords(body.prompt);
    const outputTokens = 272 * count;
    result.usage = {
      total_tokens: textTokens + outputTokens,
      input_tokens: textTokens,
      output_tokens: outputTokens,
      input_tokens_details: { text_tokens: textTokens, image_tokens: 0 },
    };
  }
  await sendResultJson(response, scenario, result);
}

/** `GET /__files/mock-image.png`: the image that generated URLs point to. */
export function sendMockImage(response: ServerResponse): void {
  sendBody(response, 200, 'image/png', mockPngBytes);
}

const audioContentTypes: Record<string, string> = {
  mp3: 'audio/mpeg',
  opus: 'audio/ogg',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};

/** One second of 24 kHz 16-bit mono silence as a WAV file. */
function buildSilentWav(): Buffer {
  const dataLength = 48_000;
  const wav = Buffer.alloc(44 + dataLength);
  wav.write('RIFF', 0, 'ascii');
  wav.writeUInt32LE(36 + dataLength, 4);
  wav.write('WAVEfmt ', 8, 'ascii');
  wav.writeUInt32LE(16, 16);
  wav.writeUInt16LE(1, 20);
  wav.writeUInt16LE(1, 22);
  wav.writeUInt32LE(24_000, 24);
  wav.writeUInt32LE(48_000, 28);
  wav.writeUInt16LE(2, 32);
  wav.writeUInt16LE(16, 34);
  wav.write('data', 36, 'ascii');
  wav.writeUInt32LE(dataLength, 40);
  return wav;
}

/** Fixed audio payloads per format: recognisable headers, silent content. */
const audioBodies: Record<string, Buffer> = {
  mp3: Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.alloc(2044)]),
  wav: buildSilentWav(),
  pcm: Buffer.alloc(48_000),
  opus: Buffer.concat([Buffer.from('OggS', 'ascii'), Buffer.alloc(2044)]),
  aac: Buffer.concat([Buffer.from([0xff, 0xf1, 0x50, 0x80]), Buffer.alloc(2044)]),
  flac: Buffer.concat([Buffer.from('fLaC', 'ascii'), Buffer.alloc(2044)]),
};

/**
 * `POST /v1/audio/speech`: a fixed audio payload in the requested `response_format` (mp3 by
 * default). OpenAI bills speech by input characters and sends no usage.
 */
export async function handleOpenAiSpeech(context: MockRequestContext): Promise<void> {
  const { body, response, scenario } = context;
  if (typeof body.input !== 'string' || body.input === '') {
    sendProtocolError(response, 'openai', {
      status: 400,
      message: "Missing required parameter: 'input'.",
      param: 'input',
      code: 'missing_required_parameter',
    });
    return;
  }
  const format = typeof body.response_format === 'string' ? body.response_format : 'mp3';
  const audio = audioBodies[format] ?? audioBodies.mp3!;
  if (!(await pause(response, scenario.slowFirstByteMs))) return;
  sendBody(response, 200, audioContentTypes[format] ?? 'audio/mpeg', audio);
}
