import { describe, expect, it } from 'vitest';
import { createSseReader } from './sse-reader';

describe('createSseReader', () => {
  it('reads data lines across chunk boundaries and the end marker', () => {
    const reader = createSseReader();
    expect(reader.push('data: {"a":1}\n\ndata: {"b"')).toEqual([{ kind: 'data', data: '{"a":1}' }]);
    expect(reader.push(':2}\r\n\r\n: keep-alive\nevent: x\ndata: [DONE]\n')).toEqual([
      { kind: 'data', data: '{"b":2}' },
      { kind: 'done' },
    ]);
  });

  it('flushes a last line without a newline', () => {
    const reader = createSseReader();
    expect(reader.push('data: {"c":3}')).toEqual([]);
    expect(reader.flush()).toEqual([{ kind: 'data', data: '{"c":3}' }]);
    expect(reader.flush()).toEqual([]);
  });
});
