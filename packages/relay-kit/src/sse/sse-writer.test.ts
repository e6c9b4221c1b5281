import { describe, expect, it } from 'vitest';
import { collectText, streamOf } from '../testing/sse-fixtures.js';
import { parseSseText } from './sse-parser.js';
import {
  createSseWriterStream,
  formatSseComment,
  formatSseData,
  formatSseEvent,
  formatSseJson,
  SSE_DONE,
  SSE_DONE_BYTES,
} from './sse-writer.js';

describe('sse writer', () => {
  it('writes data lines', () => {
    expect(formatSseData('{"a":1}')).toBe('data: {"a":1}\n\n');
    expect(formatSseJson({ a: 'x\ny' })).toBe('data: {"a":"x\\ny"}\n\n');
    expect(SSE_DONE).toBe('data: [DONE]\n\n');
    expect(new TextDecoder().decode(SSE_DONE_BYTES)).toBe(SSE_DONE);
  });

  it('splits multi-line data and writes event and id fields', () => {
    expect(formatSseEvent({ event: 'message_delta', id: '3', data: 'a\nb\r\nc' })).toBe(
      'event: message_delta\nid: 3\ndata: a\ndata: b\ndata: c\n\n',
    );
    expect(formatSseData('a\nb')).toBe('data: a\ndata: b\n\n');
  });

  it('round-trips through the parser', () => {
    const events = [
      { event: 'x', id: undefined, data: 'line one\nline two' },
      { event: undefined, id: '9', data: '{"k":"v"}' },
    ];
    expect(parseSseText(events.map(formatSseEvent).join(''))).toEqual(events);
  });

  it('writes comments on one line', () => {
    expect(formatSseComment('ping\nnow')).toBe(': ping now\n\n');
  });

  it('streams events as bytes', async () => {
    const stream = streamOf([{ data: 'a' }, 'data: [DONE]\n\n']).pipeThrough(createSseWriterStream());
    expect(await collectText(stream)).toBe('data: a\n\ndata: [DONE]\n\n');
  });
});
