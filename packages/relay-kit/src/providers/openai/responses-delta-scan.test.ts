import { describe, expect, it } from 'vitest';
import { GeneratedTextCollector } from '../../util/generated-text-collector.js';
import { ResponsesDeltaScan, TEXT_DELTA_EVENTS } from './responses-delta-scan.js';

function scanned(data: string, collect = true): { handled: boolean; text: string } {
  const generated = new GeneratedTextCollector(10_000);
  const handled = new ResponsesDeltaScan().read(data, generated, collect);
  return { handled, text: generated.result().text };
}

describe('ResponsesDeltaScan', () => {
  it('reads the delta of every text delta event exactly as a full parse does', () => {
    for (const type of TEXT_DELTA_EVENTS) {
      for (const delta of ['plain', 'q "x" \\ é 🚀\n', '{"delta":"no"}', '']) {
        const data = JSON.stringify({
          type,
          item_id: 'msg_1',
          output_index: 0,
          content_index: 0,
          delta,
          logprobs: [{ token: 'delta', logprob: -0.1, top_logprobs: [{ token: 'type', delta: 'x' }] }],
          sequence_number: 7,
        });
        expect(scanned(data)).toEqual({ handled: true, text: delta });
      }
    }
  });

  it('reads the type wherever it stands, and ignores nested type and delta keys', () => {
    expect(scanned('{"delta":"a","type":"response.output_text.delta"}')).toEqual({
      handled: true,
      text: 'a',
    });
    expect(
      scanned('{"type":"response.created","response":{"type":"response.output_text.delta","delta":"x"}}'),
    ).toEqual({
      handled: false,
      text: '',
    });
  });

  it('leaves other events, cut-short JSON, missing deltas and invalid escapes to the full parse', () => {
    expect(scanned('{"type":"response.audio.delta","delta":"AAAA"}').handled).toBe(false);
    expect(scanned('{"type":"response.completed","response":{"usage":{}}}').handled).toBe(false);
    expect(scanned('{"type":"response.output_text.delta","delta":"x"').handled).toBe(false);
    expect(scanned('{"type":"response.output_text.delta","delta":3}').handled).toBe(false);
    expect(scanned('{"type":"response.output_text.delta","delta":"bad \\x"}')).toEqual({
      handled: false,
      text: '',
    });
  });

  it('handles a text delta without collecting when collection is off', () => {
    expect(scanned('{"type":"response.output_text.delta","delta":"x"}', false)).toEqual({
      handled: true,
      text: '',
    });
  });

  it('keeps no state from one event to the next', () => {
    const scan = new ResponsesDeltaScan();
    const generated = new GeneratedTextCollector(100);
    expect(scan.read('{"type":"response.output_text.delta","delta":"a"}', generated, true)).toBe(true);
    expect(scan.read('{"type":"response.output_text.delta"}', generated, true)).toBe(false);
    expect(scan.read('{"delta":"b"}', generated, true)).toBe(false);
    expect(generated.result().text).toBe('a');
  });
});
