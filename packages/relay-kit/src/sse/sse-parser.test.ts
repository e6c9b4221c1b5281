import { describe, expect, it } from 'vitest';
import type { SseEvent } from '../spec/sse-event.js';
import { collectStream, splitEvery, streamOf, toBytes } from '../testing/sse-fixtures.js';
import { createSseParser, createSseParserStream, parseSseText } from './sse-parser.js';

function parseChunks(chunks: Array<Uint8Array | string>): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = createSseParser((event) => events.push(event));
  for (const chunk of chunks) parser.push(chunk);
  parser.end();
  return events;
}

describe('createSseParser', () => {
  it('parses data-only events', () => {
    expect(parseSseText('data: {"a":1}\n\ndata: [DONE]\n\n')).toEqual([
      { data: '{"a":1}', event: undefined, id: undefined },
      { data: '[DONE]', event: undefined, id: undefined },
    ]);
  });

  it('handles events split at every byte', () => {
    const text = 'event: message_start\ndata: {"type":"message_start"}\n\ndata: {"x":"héllo 😀"}\n\n';
    const events = parseChunks(splitEvery(toBytes(text), 1));
    expect(events.map((event) => [event.event, event.data])).toEqual([
      ['message_start', '{"type":"message_start"}'],
      [undefined, '{"x":"héllo 😀"}'],
    ]);
  });

  it('decodes UTF-8 sequences split across chunks', () => {
    const bytes = toBytes('data: 你好😀\n\n');
    // Split inside the 3-byte and the 4-byte sequences.
    const events = parseChunks([bytes.slice(0, 7), bytes.slice(7, 11), bytes.slice(11, 14), bytes.slice(14)]);
    expect(events[0]?.data).toBe('你好😀');
  });

  it('accepts CRLF and bare CR line ends', () => {
    expect(parseSseText('data: one\r\n\r\ndata: two\r\rdata: three\n\n').map((event) => event.data)).toEqual([
      'one',
      'two',
      'three',
    ]);
  });

  it('handles a CRLF split between chunks', () => {
    expect(parseChunks(['data: one\r', '\n\r', '\ndata: two\r\n\r\n']).map((event) => event.data)).toEqual([
      'one',
      'two',
    ]);
  });

  it('joins multi-line data with newlines', () => {
    expect(parseSseText('data: first\ndata:second\ndata:  third\n\n')[0]?.data).toBe('first\nsecond\n third');
  });

  it('skips comments and reports them', () => {
    const comments: string[] = [];
    const events: SseEvent[] = [];
    const parser = createSseParser((event) => events.push(event), {
      onComment: (comment) => comments.push(comment),
    });
    parser.push(': OPENROUTER PROCESSING\n\ndata: {"ok":true}\n\n:keep-alive\n\n');
    parser.end();
    expect(events.map((event) => event.data)).toEqual(['{"ok":true}']);
    expect(comments).toEqual(['OPENROUTER PROCESSING', 'keep-alive']);
  });

  it('reads event and id fields and ignores unknown fields', () => {
    expect(parseSseText('id: 7\nevent: ping\nfoo: bar\ndata: x\n\n')).toEqual([
      { id: '7', event: 'ping', data: 'x' },
    ]);
  });

  it('ignores events without data', () => {
    expect(parseSseText('event: ping\n\n\n\ndata: x\n\n').map((event) => event.data)).toEqual(['x']);
  });

  it('delivers a last event that is not followed by a blank line', () => {
    expect(parseChunks(['data: a\n\ndata: b']).map((event) => event.data)).toEqual(['a', 'b']);
  });

  it('strips a leading BOM', () => {
    expect(parseChunks([new Uint8Array([0xef, 0xbb, 0xbf, ...toBytes('data: x\n\n')])])[0]?.data).toBe('x');
  });

  it('fails instead of buffering an endless line', () => {
    const errors: Error[] = [];
    const parser = createSseParser(() => {}, { maxBufferSize: 16, onError: (error) => errors.push(error) });
    parser.push(`data: ${'x'.repeat(64)}`);
    parser.push('more');
    expect(errors).toHaveLength(1);
  });
});

describe('createSseParserStream', () => {
  it('transforms a byte stream into events', async () => {
    const text = 'data: {"n":1}\n\ndata: {"n":2}\n\ndata: [DONE]\n\n';
    const events = await collectStream(
      streamOf(splitEvery(toBytes(text), 5)).pipeThrough(createSseParserStream()),
    );
    expect(events.map((event) => event.data)).toEqual(['{"n":1}', '{"n":2}', '[DONE]']);
  });

  it('errors the stream on buffer overflow', async () => {
    const stream = streamOf([toBytes(`data: ${'y'.repeat(100)}`)]).pipeThrough(
      createSseParserStream({ maxBufferSize: 10 }),
    );
    await expect(collectStream(stream)).rejects.toThrow(/max buffer size/);
  });
});
