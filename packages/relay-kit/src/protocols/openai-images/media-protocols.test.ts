import { describe, expect, it } from 'vitest';
import { openAIAdapter } from '../../providers/openai/openai-adapter.js';
import { getProviderAdapter } from '../../providers/registry.js';
import { isRelayRequestError, type RelayRequestError } from '../../spec/request-error.js';
import { toBytes } from '../../testing/sse-fixtures.js';
import {
  type MultipartPart,
  parseMultipart,
  readMultipartField,
  writeMultipart,
} from '../../util/multipart.js';
import {
  parseOpenAISpeechRequest,
  parseOpenAITranscriptionRequest,
} from '../openai-audio/openai-audio-codec.js';
import { parseRerankRequest } from '../rerank/rerank-codec.js';
import { openAIImagesCodec, parseOpenAIImagesRequest } from './openai-images-codec.js';

const decoder = new TextDecoder();
const channel = { type: 1, key: 'sk-x' };

function caught(run: () => unknown): RelayRequestError {
  try {
    run();
  } catch (error) {
    if (isRelayRequestError(error)) return error;
    throw error;
  }
  throw new Error('expected a RelayRequestError');
}

function form(parts: MultipartPart[], path: string) {
  const { body, contentType } = writeMultipart(parts, 'BOUNDARY123');
  return { rawBody: body, path, headers: { 'content-type': contentType } };
}
const text = (name: string, value: string): MultipartPart => ({ name, data: toBytes(value) });
const file = (name: string, filename: string, bytes: number[]): MultipartPart => ({
  name,
  filename,
  contentType: 'application/octet-stream',
  data: new Uint8Array(bytes),
});

describe('image requests', () => {
  it('defaults model, n and size, and exposes the billing quantities', () => {
    const call = parseOpenAIImagesRequest({ json: { prompt: 'a cat' }, path: '/v1/images/generations' });
    expect(call).toMatchObject({ protocol: 'openai-images', model: 'dall-e-2', stream: false });
    expect(call.quantities).toEqual({ imageCount: 1, imageSize: '1024x1024', imageQuality: undefined });
    expect(call.prompt).toEqual({ texts: ['a cat'] });
    const hd = parseOpenAIImagesRequest({
      json: { model: 'dall-e-3', prompt: 'x', n: 1, size: '1792x1024', quality: 'hd' },
    });
    expect(hd.quantities).toEqual({ imageCount: 1, imageSize: '1792x1024', imageQuality: 'hd' });
    expect(
      parseOpenAIImagesRequest({ json: { model: 'dall-e-3', prompt: 'x' } }).quantities?.imageQuality,
    ).toBe('standard');
    expect(
      parseOpenAIImagesRequest({ json: { model: 'gpt-image-1', prompt: 'x', n: 3, size: 'auto' } })
        .quantities,
    ).toEqual({
      imageCount: 3,
      imageSize: 'auto',
      imageQuality: undefined,
    });
  });

  it.each([
    [{ model: 'dall-e-2' }, 'prompt', '"prompt" is required'],
    [{ prompt: 'x', n: 0 }, 'n', '"n" must be between 1 and 10'],
    [{ prompt: 'x', n: '2' }, 'n', '"n" must be an integer'],
    [{ prompt: 'x', size: '1024×1024' }, 'size', '"size" must be written WIDTHxHEIGHT'],
    [
      { prompt: 'x', size: '1792x1024' },
      'size',
      '"size" must be one of 256x256, 512x512, 1024x1024 for dall-e-2',
    ],
    [
      { model: 'dall-e-3', prompt: 'x', quality: 'ultra' },
      'quality',
      '"quality" must be one of standard, hd',
    ],
  ])('rejects %j', (json, param, message) => {
    const error = caught(() => openAIImagesCodec.parseRequest({ json }));
    expect(error.param).toBe(param);
    expect(error.message.startsWith(message)).toBe(true);
  });

  it('parses multipart edits and sends them to /v1/images/edits', () => {
    const request = form(
      [
        text('prompt', 'add a hat'),
        text('n', '2'),
        file('image', 'cat.png', [137, 80, 78, 71]),
        text('model', 'gpt-image-1'),
      ],
      '/v1/images/edits',
    );
    const call = parseOpenAIImagesRequest(request);
    expect(call.model).toBe('gpt-image-1');
    expect(call.quantities).toMatchObject({ imageCount: 2, uploadBytes: 4 });
    expect(call.body).toEqual({ prompt: 'add a hat', n: '2', model: 'gpt-image-1' });
    const upstream = openAIAdapter.buildRequest(call, channel);
    expect(upstream.url).toBe('https://api.openai.com/v1/images/edits');
    expect(upstream.body).toBe(request.rawBody);
    expect(upstream.headers['content-type']).toBe('multipart/form-data; boundary=BOUNDARY123');
    const noImage = caught(() => parseOpenAIImagesRequest(form([text('prompt', 'x')], '/v1/images/edits')));
    expect(noImage.param).toBe('image');
  });
});

describe('audio requests', () => {
  it('counts speech characters as code points', () => {
    const call = parseOpenAISpeechRequest({
      json: { input: 'héllo 👋', voice: 'alloy' },
      path: '/v1/audio/speech',
    });
    expect(call).toMatchObject({ protocol: 'openai-audio-speech', model: 'tts-1' });
    expect(call.quantities).toEqual({ inputCharacters: 7 });
    expect(openAIAdapter.buildRequest(call, channel).url).toBe('https://api.openai.com/v1/audio/speech');
    expect(caught(() => parseOpenAISpeechRequest({ json: { voice: 'alloy' } })).param).toBe('input');
    expect(caught(() => parseOpenAISpeechRequest({ json: { input: 'x', voice: 3 } })).param).toBe('voice');
    expect(caught(() => parseOpenAISpeechRequest({ json: { input: 'x'.repeat(4097) } })).param).toBe('input');
  });

  it('parses transcriptions, defaults whisper-1 and rebuilds the form when the model is mapped', () => {
    const audio = file('file', 'a.wav', [1, 2, 3, 4, 5]);
    const request = form(
      [audio, text('response_format', 'verbose_json'), text('prompt', 'names')],
      '/v1/audio/translations',
    );
    const call = parseOpenAITranscriptionRequest(request);
    expect(call).toMatchObject({ protocol: 'openai-audio-transcription', model: 'whisper-1' });
    expect(call.quantities).toEqual({ uploadBytes: 5 });
    expect(call.prompt).toEqual({ texts: ['names'] });
    // The client sent no model: the default is added, other fields and the file copied.
    const upstream = getProviderAdapter(58)!.buildRequest(call, {
      type: 58,
      key: 'gsk',
      modelMapping: { 'whisper-1': 'whisper-large-v3' },
    });
    expect(upstream.url).toBe('https://api.groq.com/openai/v1/audio/translations');
    expect(upstream.upstreamModel).toBe('whisper-large-v3');
    const rebuilt = parseMultipart(upstream.body as Uint8Array, upstream.headers['content-type']);
    expect(rebuilt.parts.map((part) => part.name)).toEqual(['model', 'file', 'response_format', 'prompt']);
    expect(readMultipartField(rebuilt, 'model')).toBe('whisper-large-v3');
    expect(rebuilt.parts[1]).toMatchObject({ filename: 'a.wav', data: new Uint8Array([1, 2, 3, 4, 5]) });
    expect(
      caught(() =>
        parseOpenAITranscriptionRequest(form([text('model', 'whisper-1')], '/v1/audio/transcriptions')),
      ).param,
    ).toBe('file');
    const notMultipart = caught(() =>
      parseOpenAITranscriptionRequest({ rawBody: '{}', headers: { 'content-type': 'application/json' } }),
    );
    expect(notMultipart.message).toBe('request body must be multipart/form-data');
  });

  it('reads transcription usage from tokens, durations and verbose_json', () => {
    const tokens = openAIAdapter.readUsage(
      '{"text":"hi","usage":{"type":"tokens","input_tokens":14,"input_token_details":{"audio_tokens":10,"text_tokens":4},"output_tokens":3,"total_tokens":17}}',
      'openai-audio-transcription',
    );
    expect(tokens?.inputTokens).toMatchObject({ total: 14, audio: 10 });
    expect(tokens?.outputTokens.total).toBe(3);
    const duration = openAIAdapter.readUsage(
      { text: 'hi', usage: { type: 'duration', seconds: 2.2 } },
      'openai-audio-transcription',
    );
    expect(duration?.inputTokens).toMatchObject({ total: 30, audio: 30 });
    expect(
      openAIAdapter.readUsage({ text: 'x', duration: 9.5 }, 'openai-audio-transcription')?.inputTokens.total,
    ).toBe(100);
    expect(openAIAdapter.readUsage('plain transcript', 'openai-audio-transcription')).toBeUndefined();
  });
});

describe('rerank requests', () => {
  it('collects query and documents for the estimate and reads usage per vendor', () => {
    const call = parseRerankRequest({
      json: {
        model: 'jina-reranker-v2',
        query: 'q',
        documents: ['a', { text: 'b' }, { title: 't' }],
        top_n: 2,
        return_documents: true,
      },
      path: '/v1/rerank',
    });
    expect(call.prompt).toEqual({ texts: ['q', 'a', 'b', '{"title":"t"}'] });
    const jina = getProviderAdapter(38)!;
    expect(jina.buildRequest(call, { type: 38, key: 'jina_x' }).url).toBe('https://api.jina.ai/v1/rerank');
    expect(jina.readUsage('{"results":[],"usage":{"total_tokens":42}}', 'rerank')?.inputTokens.total).toBe(
      42,
    );
    expect(
      jina.readUsage({ meta: { billed_units: { input_tokens: 9, search_units: 1 } } }, 'rerank')?.inputTokens
        .total,
    ).toBe(9);
    expect(getProviderAdapter(47)!.readUsage({ usage: { total_tokens: 42 } }, 'rerank')).toBeUndefined();
  });

  it.each([
    [{ query: 'q', documents: ['a'] }, 'model'],
    [{ model: 'm', documents: ['a'] }, 'query'],
    [{ model: 'm', query: 'q' }, 'documents'],
    [{ model: 'm', query: 'q', documents: [] }, 'documents'],
    [{ model: 'm', query: 'q', documents: [1] }, 'documents[0]'],
    [{ model: 'm', query: 'q', documents: ['a'], top_n: 0 }, 'top_n'],
    [{ model: 'm', query: 'q', documents: ['a'], return_documents: 'yes' }, 'return_documents'],
  ])('rejects %j', (json, param) => {
    expect(caught(() => parseRerankRequest({ json })).param).toBe(param);
  });
});

describe('images usage', () => {
  it('reads gpt-image token usage', () => {
    const usage = openAIAdapter.readUsage(
      { data: [{ b64_json: 'x' }], usage: { input_tokens: 50, output_tokens: 4160, total_tokens: 4210 } },
      'openai-images',
    );
    expect(usage?.outputTokens.total).toBe(4160);
    expect(openAIAdapter.readUsage({ data: [{ url: 'u' }] }, 'openai-images')).toBeUndefined();
    expect(decoder.decode(toBytes('ok'))).toBe('ok');
  });
});
