import { countTextTokens } from '@switchyard/relay-kit';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChannel,
  createToken,
  type RelayFixture,
  setOption,
  settledLogs,
  startRelayFixture,
  userBalance,
} from '../relay/relay-support.ts';

/** A mono 16-bit 8 kHz WAV file of `seconds` of silence (16,000 bytes per second). */
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
  for (let offset = 44; offset < file.length; offset += 2) file.writeInt16LE((offset * 37) % 2000, offset);
  return file;
}

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** Runs `call` and returns the newest consume log row and how much the root user paid. */
async function charged(f: RelayFixture, call: () => Promise<void>) {
  // Earlier calls settle after their responses: let them finish before reading the balance.
  await f.t.app.services.relay.drain();
  const before = await userBalance(f, 1);
  await call();
  const log = (await settledLogs(f)).at(-1)!;
  const after = await userBalance(f, 1);
  return { log, paid: before.quota - after.quota };
}

describe('multipart uploads through the relay (transcriptions, image edits)', () => {
  let f: RelayFixture;
  let client: OpenAI;
  let channelId: number;
  let mappedId: number;

  beforeAll(async () => {
    f = await startRelayFixture();
    channelId = await createChannel(f, { models: 'whisper-1,dall-e-3', name: 'plain' });
    mappedId = await createChannel(f, {
      name: 'mapped',
      models: 'whisper-mapped',
      model_mapping: JSON.stringify({ 'whisper-mapped': 'whisper-large-v3' }),
    });
    const { key } = await createToken(f.root);
    client = new OpenAI({ apiKey: key, baseURL: `${f.baseUrl}/v1`, maxRetries: 0 });
    const ratios = f.t.app.services.options.getJson<Record<string, number>>('ModelRatio');
    await setOption(f, 'ModelRatio', JSON.stringify({ ...ratios, 'whisper-mapped': 15 }));
  });
  afterAll(async () => f.close());

  it('passes a transcription through and bills the duration the upstream reports', async () => {
    const audio = wav(2.5);
    const { log, paid } = await charged(f, async () => {
      const result = await client.audio.transcriptions.create({
        model: 'whisper-1',
        file: await toFile(audio, 'speech.wav', { type: 'audio/wav' }),
      });
      expect(result.text).toBe('Hello from mock whisper-1: transcript of speech.wav');
      const sent = f.mock.lastRequest()!;
      expect(sent.path).toBe('/v1/audio/transcriptions');
      expect(String(sent.headers['content-type'])).toMatch(/^multipart\/form-data; boundary=/);
    });
    // usage {type: duration, seconds: 3} → 30 audio tokens × ratio 15.
    expect(log).toMatchObject({
      model_name: 'whisper-1',
      prompt_tokens: 30,
      quota: 450,
      channel_id: channelId,
    });
    expect(paid).toBe(450);
  });

  it('answers verbose_json and text formats, and translations', async () => {
    const verbose = await client.audio.transcriptions.create({
      model: 'whisper-1',
      file: await toFile(wav(1.5), 'a.wav'),
      response_format: 'verbose_json',
    });
    expect(verbose).toMatchObject({ task: 'transcribe', duration: 1.5 });
    const text = await client.audio.transcriptions.create({
      model: 'whisper-1',
      file: await toFile(wav(1), 'b.wav'),
      response_format: 'text',
    });
    expect(text).toBe('Hello from mock whisper-1: transcript of b.wav\n');
    const translation = await client.audio.translations.create({
      model: 'whisper-1',
      file: await toFile(wav(1), 'c.wav'),
    });
    expect(translation.text).toBe('Hello from mock whisper-1: translation of c.wav');
    expect(f.mock.lastRequest()!.path).toBe('/v1/audio/translations');
  });

  it('bills the transcript text of a plain-text answer, which carries no usage', async () => {
    const { log, paid } = await charged(f, async () => {
      const text = await client.audio.transcriptions.create({
        model: 'whisper-1',
        file: await toFile(wav(1), 'plain.wav'),
        response_format: 'text',
      });
      expect(text).toBe('Hello from mock whisper-1: transcript of plain.wav\n');
    });
    const tokens = countTextTokens('Hello from mock whisper-1: transcript of plain.wav\n', 'whisper-1');
    expect(tokens).toBeGreaterThan(0);
    expect(log).toMatchObject({ model_name: 'whisper-1', completion_tokens: tokens, quota: tokens * 15 });
    expect(paid).toBe(tokens * 15);
  });

  it('rebuilds the form when the channel maps the model, keeping the file intact', async () => {
    const { log, paid } = await charged(f, async () => {
      const result = await client.audio.transcriptions.create({
        model: 'whisper-mapped',
        file: await toFile(wav(2.5), 'mapped.wav', { type: 'audio/wav' }),
        response_format: 'verbose_json',
      });
      // The mock measured the WAV it received: the bytes survived the rebuild.
      expect(result).toMatchObject({
        duration: 2.5,
        text: 'Hello from mock whisper-large-v3: transcript of mapped.wav',
      });
      const sent = f.mock.lastRequest()!;
      expect(sent.body).toContain('name="model"\r\n\r\nwhisper-large-v3\r\n');
      expect(sent.body).not.toContain('whisper-mapped');
      expect(sent.body).toContain('name="response_format"\r\n\r\nverbose_json\r\n');
    });
    expect(log).toMatchObject({
      model_name: 'whisper-mapped',
      prompt_tokens: 30,
      quota: 450,
      channel_id: mappedId,
    });
    expect(paid).toBe(450);
  });

  it('edits images from a multipart upload and charges per image', async () => {
    const { log, paid } = await charged(f, async () => {
      const images = await client.images.edit({
        model: 'dall-e-3',
        image: await toFile(PNG, 'in.png', { type: 'image/png' }),
        prompt: 'add a hat',
        n: 2,
        response_format: 'b64_json',
      });
      expect(images.data).toHaveLength(2);
      expect(images.data?.[0]?.b64_json).toBeTruthy();
      const sent = f.mock.lastRequest()!;
      expect(sent.path).toBe('/v1/images/edits');
      expect(sent.body).toContain('filename="in.png"');
    });
    // 0.04 $ × 2 images × 500 000.
    expect(log).toMatchObject({ model_name: 'dall-e-3', quota: 40_000, channel_id: channelId });
    expect(paid).toBe(40_000);
  });

  it('refuses a transcription without a file before reserving anything', async () => {
    const before = await userBalance(f, 1);
    const form = new FormData();
    form.set('model', 'whisper-1');
    const { key } = await createToken(f.root);
    const reply = await fetch(`${f.baseUrl}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    expect(reply.status).toBe(400);
    expect(((await reply.json()) as { error: { message: string } }).error.message).toMatch(/file/);
    expect((await userBalance(f, 1)).quota).toBe(before.quota);
  });
});
