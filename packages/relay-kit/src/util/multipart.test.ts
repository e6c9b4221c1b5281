import { describe, expect, it } from 'vitest';
import {
  MultipartError,
  multipartFields,
  parseMultipart,
  readMultipartBoundary,
  readMultipartField,
  writeMultipart,
} from './multipart.js';

const encoder = new TextEncoder();
// As curl sends it: preamble-free, CRLF line ends, a quoted boundary in the header.
const CURL_BODY = [
  '--xYzZY',
  'Content-Disposition: form-data; name="model"',
  '',
  'whisper-1',
  '--xYzZY',
  'Content-Disposition: form-data; name="file"; filename="a \\"b\\".wav"',
  'Content-Type: audio/wav',
  '',
  'RIFF\r\n--xYz not a boundary',
  '--xYzZY',
  'Content-Disposition: form-data; name="empty"',
  '',
  '',
  '--xYzZY--',
  '',
].join('\r\n');

describe('multipart', () => {
  it('reads the boundary', () => {
    expect(readMultipartBoundary('multipart/form-data; boundary=abc')).toBe('abc');
    expect(readMultipartBoundary('Multipart/Form-Data;boundary="a b"')).toBe('a b');
    expect(readMultipartBoundary('application/json')).toBeUndefined();
    expect(readMultipartBoundary('multipart/form-data')).toBeUndefined();
  });

  it('parses fields and files, binary-safe', () => {
    const form = parseMultipart(encoder.encode(CURL_BODY), 'multipart/form-data; boundary="xYzZY"');
    expect(form.parts.map((part) => [part.name, part.filename, part.contentType])).toEqual([
      ['model', undefined, undefined],
      ['file', 'a "b".wav', 'audio/wav'],
      ['empty', undefined, undefined],
    ]);
    expect(new TextDecoder().decode(form.parts[1]!.data)).toBe('RIFF\r\n--xYz not a boundary');
    expect(multipartFields(form)).toEqual({ model: 'whisper-1', empty: '' });
    expect(readMultipartField(form, 'file')).toBeUndefined();
  });

  it('round-trips through the writer', () => {
    const bytes = new Uint8Array(256).map((_, index) => index);
    const written = writeMultipart([
      { name: 'model', data: encoder.encode('tts-1') },
      { name: 'file', filename: 'x\r\n"y".bin', data: bytes },
      { name: 'model', data: encoder.encode('second') },
    ]);
    const form = parseMultipart(written.body, written.contentType);
    expect(form.parts).toHaveLength(3);
    expect(form.parts[1]).toMatchObject({
      filename: 'x%0D%0A"y".bin',
      contentType: 'application/octet-stream',
      data: bytes,
    });
    expect(readMultipartField(form, 'model')).toBe('second');
    // Writing the parsed parts again gives the same bytes with the same boundary.
    expect(writeMultipart(form.parts, form.boundary).body).toEqual(written.body);
  });

  it.each([
    ['{}', 'application/json', 'request body must be multipart/form-data'],
    ['x', 'multipart/form-data', 'multipart/form-data content type has no boundary'],
    ['no boundary here', 'multipart/form-data; boundary=b', 'multipart body does not contain its boundary'],
    [
      '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nvalue',
      'multipart/form-data; boundary=b',
      'multipart body ends before its closing boundary',
    ],
    [
      '--b\r\nContent-Type: text/plain\r\n\r\nv\r\n--b--',
      'multipart/form-data; boundary=b',
      'multipart part has no "Content-Disposition: form-data" header',
    ],
    [
      '--b\r\nContent-Disposition: form-data\r\n\r\nv\r\n--b--',
      'multipart/form-data; boundary=b',
      'multipart part has no field name',
    ],
    [
      '--bXX',
      'multipart/form-data; boundary=b',
      'multipart body is malformed (no line end after a boundary)',
    ],
  ])('rejects %j', (body, contentType, message) => {
    expect(() => parseMultipart(body, contentType)).toThrow(new MultipartError(message));
  });
});
