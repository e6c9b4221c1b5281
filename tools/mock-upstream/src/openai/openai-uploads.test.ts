import OpenAI, { toFile } from 'openai';
import { describe, expect, it } from 'vitest';
import { testFetch, useMockUpstream } from '../testing-helpers.ts';
import { audioDurationSeconds } from './openai-transcription-handler.ts';

const mock = useMockUpstream();
const client = (spec?: string) =>
  new OpenAI({
    apiKey: 'sk-test',
    baseURL: `${mock.current.url}${spec ? `/__mock/${spec}` : ''}/v1`,
    maxRetries: 0,
  });

/** A mono 16-bit WAV of `seconds` of silence at 8 kHz. */
function wav(seconds: number): Buffer {
  const dataLength = Math.round(seconds * 16_000);
  const file = Buffer.alloc(44 + dataLength);
  file.write('RIFF', 0, 'ascii');
  file.writeUInt32LE(36 + dataLength, 4);
  file.write('WAVEfmt ', 8, 'ascii');
  file.writeUInt32LE(16, 16);
  file.writeUInt16LE(1, 20);
  file.writeUInt16LE(1, 22);
  file.writeUInt32LE(8000, 24);
  file.writeUInt32LE(16_000, 28);
  file.writeUInt16LE(2, 32);
  file.writeUInt16LE(16, 34);
  file.write('data', 36, 'ascii');
  file.writeUInt32LE(dataLength, 40);
  return file;
}

describe('POST /v1/audio/transcriptions and /v1/audio/translations', () => {
  it('reads the WAV duration', () => {
    expect(audioDurationSeconds(wav(2.5))).toBe(2.5);
    expect(audioDurationSeconds(Buffer.alloc(8000))).toBe(0.5);
  });

  it('transcribes through the SDK: json with duration usage, verbose_json, text', async () => {
    const file = await toFile(wav(2.5), 'hello.wav', { type: 'audio/wav' });
    const json = await client().audio.transcriptions.create({ model: 'whisper-1', file });
    expect(json.text).toBe('Hello from mock whisper-1: transcript of hello.wav');
    expect((json as { usage?: unknown }).usage).toEqual({ type: 'duration', seconds: 3 });
    const verbose = await client().audio.transcriptions.create({
      model: 'whisper-1',
      file: await toFile(wav(2.5), 'hello.wav'),
      response_format: 'verbose_json',
    });
    expect(verbose).toMatchObject({ task: 'transcribe', duration: 2.5, usage: { seconds: 3 } });
    expect(verbose.segments?.[0]?.end).toBe(2.5);
    const text = await client().audio.transcriptions.create({
      model: 'whisper-1',
      file: await toFile(wav(1), 'a.wav'),
      response_format: 'text',
    });
    expect(text).toBe('Hello from mock whisper-1: transcript of a.wav\n');
  });

  it('reports tokens for gpt-4o transcribe models and none for translations', async () => {
    const tokens = await client().audio.transcriptions.create({
      model: 'gpt-4o-mini-transcribe',
      file: await toFile(wav(1.2), 'a.wav'),
      prompt: 'two words',
    });
    expect((tokens as { usage?: unknown }).usage).toMatchObject({
      type: 'tokens',
      input_tokens: 22,
      input_token_details: { text_tokens: 2, audio_tokens: 20 },
      output_tokens: 7,
    });
    const translation = await client().audio.translations.create({
      model: 'whisper-1',
      file: await toFile(wav(1), 'b.wav'),
      response_format: 'verbose_json',
    });
    expect(translation).toMatchObject({
      task: 'translate',
      duration: 1,
      text: expect.stringContaining('translation of b.wav'),
    });
    expect((translation as { usage?: unknown }).usage).toBeUndefined();
  });

  it('refuses a form without a file, a non-form body, and applies scenarios', async () => {
    const form = new FormData();
    form.set('model', 'whisper-1');
    const missing = await testFetch(`${mock.current.url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test' },
      body: form,
    });
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.param).toBe('file');
    const notForm = await testFetch(`${mock.current.url}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
      body: '{"model":"whisper-1"}',
    });
    expect(notForm.status).toBe(400);
    const file = await toFile(wav(1), 'a.wav');
    await expect(
      client('error-503').audio.transcriptions.create({ model: 'whisper-1', file }),
    ).rejects.toMatchObject({
      status: 503,
    });
    const quiet = await client('no-usage').audio.transcriptions.create({
      model: 'whisper-1',
      file: await toFile(wav(1), 'a.wav'),
    });
    expect((quiet as { usage?: unknown }).usage).toBeUndefined();
  });
});

describe('POST /v1/images/edits', () => {
  it('edits with DALL·E (url) and gpt-image (b64 and token usage)', async () => {
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const dalle = await client().images.edit({
      model: 'dall-e-2',
      image: await toFile(png, 'in.png', { type: 'image/png' }),
      prompt: 'add a hat',
      n: 2,
    });
    expect(dalle.data).toHaveLength(2);
    expect(dalle.data?.[0]?.url).toContain('/__files/mock-image.png');
    const gptImage = await client().images.edit({
      model: 'gpt-image-1',
      image: [
        await toFile(png, 'a.png', { type: 'image/png' }),
        await toFile(png, 'b.png', { type: 'image/png' }),
      ],
      prompt: 'add a hat',
    });
    expect(gptImage.data?.[0]?.b64_json).toBeTruthy();
    expect(gptImage.usage).toMatchObject({
      input_tokens: 133,
      output_tokens: 272,
      input_tokens_details: { text_tokens: 3, image_tokens: 130 },
    });
  });

  it('needs an image and a prompt', async () => {
    const form = new FormData();
    form.set('prompt', 'x');
    const reply = await testFetch(`${mock.current.url}/v1/images/edits`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test' },
      body: form,
    });
    expect(reply.status).toBe(400);
    expect((await reply.json()).error.param).toBe('image');
  });
});
