import { describe, expect, it } from 'vitest';
import { cutAfterEvent } from './cut-after-event.js';

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (data: Uint8Array) => new TextDecoder().decode(data);

describe('cutAfterEvent', () => {
  it('keeps everything up to the end of the malformed line', () => {
    const out = bytes('data: {"a":1}\n\ndata: {"b":\n\ndata: {"c":3}\n\ndata: [DONE]\n\n');
    expect(text(cutAfterEvent(out, '{"b":'))).toBe('data: {"a":1}\n\ndata: {"b":\n');
  });

  it('cuts at the first line end when the line began in an earlier chunk', () => {
    const out = bytes('"x"é}\n\ndata: {"next":1}\n\n');
    expect(text(cutAfterEvent(out, '{"partial":"x"é}'))).toBe('"x"é}\n');
  });

  it('keeps multi-byte text intact', () => {
    const out = bytes('data: {"t":"日本語"}\n\ndata: {"日本\n\nrest');
    expect(text(cutAfterEvent(out, '{"日本'))).toBe('data: {"t":"日本語"}\n\ndata: {"日本\n');
  });
});
