import { describe, expect, it } from 'vitest';
import { GeneratedTextCollector } from '../../util/generated-text-collector.js';
import { AnthropicDeltaScan } from './anthropic-delta-scan.js';

const TRICKY_TEXTS = [
  'plain',
  '',
  'quotes "inside" and \\ backslashes \\',
  'unicode é 中文 🚀 and \u0001 control',
  'line\nbreaks\r\n\ttabs',
  'json-like {"text":"no"} ] [ }',
  '\\"',
];

function scanned(data: string): { handled: boolean; text: string } {
  const generated = new GeneratedTextCollector(10_000);
  const handled = new AnthropicDeltaScan().read(data, generated);
  return { handled, text: generated.result().text };
}

/** What a full parse takes from a content_block_delta event. */
function parsedText(data: string): string {
  const delta = (JSON.parse(data) as { delta: Record<string, unknown> }).delta;
  const text = delta.text ?? delta.thinking ?? delta.partial_json;
  return typeof text === 'string' ? text : '';
}

describe('AnthropicDeltaScan', () => {
  it('reads text, thinking and tool input exactly as a full parse does', () => {
    for (const text of TRICKY_TEXTS) {
      for (const delta of [
        { type: 'text_delta', text },
        { type: 'thinking_delta', thinking: text },
        { type: 'input_json_delta', partial_json: text },
      ]) {
        const data = JSON.stringify({ type: 'content_block_delta', index: 3, delta });
        expect(scanned(data)).toEqual({ handled: true, text: parsedText(data) });
      }
    }
  });

  it('handles any key order and whitespace', () => {
    const data =
      '{ "delta" : { "text" : "a\\"b", "type" : "text_delta" } , "index":0, "type" : "content_block_delta" }';
    expect(scanned(data)).toEqual({ handled: true, text: 'a"b' });
  });

  it('prefers text over thinking over partial_json, as the full parse does', () => {
    const data = JSON.stringify({
      type: 'content_block_delta',
      delta: { partial_json: 'p', thinking: 't', text: 'x' },
    });
    expect(scanned(data).text).toBe('x');
  });

  it('takes nothing from deltas without text (signatures, citations)', () => {
    const signature = JSON.stringify({
      type: 'content_block_delta',
      index: 0,
      delta: { type: 'signature_delta', signature: 'EqQBCgIYAhIM' },
    });
    const citation = JSON.stringify({
      type: 'content_block_delta',
      index: 0,
      delta: {
        type: 'citations_delta',
        citation: { type: 'char_location', cited_text: 'quoted', text: 'nested text is not generated' },
      },
    });
    expect(scanned(signature)).toEqual({ handled: true, text: '' });
    expect(scanned(citation)).toEqual({ handled: true, text: '' });
  });

  it('leaves other events, cut-short JSON and invalid escapes to the full parse', () => {
    expect(scanned('{"type":"message_delta","delta":{"text":"x"}}')).toEqual({ handled: false, text: '' });
    expect(scanned('{"type":"content_block_delta","delta":{"text":"x"')).toEqual({
      handled: false,
      text: '',
    });
    expect(scanned('{"type":"content_block_delta","delta":{"text":"bad \\x"}}')).toEqual({
      handled: false,
      text: '',
    });
  });

  it('keeps no state from one event to the next', () => {
    const scan = new AnthropicDeltaScan();
    const generated = new GeneratedTextCollector(100);
    expect(scan.read('{"type":"message_start","delta":{"text":"no"}}', generated)).toBe(false);
    expect(scan.read('{"delta":{"text":"yes"}}', generated)).toBe(true);
    expect(scan.read('{"delta":{"type":"signature_delta","signature":"s"}}', generated)).toBe(true);
    expect(generated.result().text).toBe('yes');
  });
});
