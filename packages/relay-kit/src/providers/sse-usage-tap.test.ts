import { describe, expect, it } from 'vitest';
import type { PassthroughTapOptions } from '../spec/passthrough-tap.js';
import { splitAt, toBytes } from '../testing/sse-fixtures.js';
import { createSseUsageTap, type SseTapFormat } from './sse-usage-tap.js';
import { MALFORMED } from './tap-findings.js';

interface Seen {
  readonly data: string;
  readonly name: string | undefined;
}

/** A tap whose reader records every event and parses its data (`drop` answers false for `"drop"`). */
function recordingTap(format: Partial<SseTapFormat> = {}, options: PassthroughTapOptions = {}) {
  const seen: Seen[] = [];
  const tap = createSseUsageTap({ now: () => 7, ...options }, (findings) => ({
    ...format,
    read(data, name) {
      seen.push({ data, name });
      const parsed = findings.parse(data);
      if (parsed !== MALFORMED && typeof parsed === 'object' && parsed !== null) {
        findings.generated.append(String((parsed as { text?: unknown }).text ?? ''));
      }
      return data !== '"drop"';
    },
  }));
  return { tap, seen };
}

function run(chunks: Uint8Array[], format: Partial<SseTapFormat> = {}, options: PassthroughTapOptions = {}) {
  const { tap, seen } = recordingTap(format, options);
  const outputs = chunks.map((chunk) => tap.push(chunk));
  outputs.push(tap.finish());
  return { seen, result: tap.result(), outputs, text: Buffer.concat(outputs).toString('utf8') };
}

const STREAM =
  'event: greeting\ndata: {"text":"héllo 👋"}\n\n: comment\nid: 3\ndata:{"text":" wörld"}\n\nevent: done\ndata: [1]\n\n';
const EVENTS: Seen[] = [
  { data: '{"text":"héllo 👋"}', name: 'greeting' },
  { data: '{"text":" wörld"}', name: undefined },
  { data: '[1]', name: 'done' },
];

describe('createSseUsageTap', () => {
  it('reads the same events whatever the chunk boundary (every byte position, LF and CRLF)', () => {
    for (const text of [STREAM, STREAM.replaceAll('\n', '\r\n')]) {
      const bytes = toBytes(text);
      for (let cut = 0; cut <= bytes.length; cut++) {
        const chunks = splitAt(bytes, [cut]);
        const { seen, result, outputs } = run(chunks, { eventNames: true });
        expect(seen, `cut at ${cut}`).toEqual(EVENTS);
        expect(result.eventCount).toBe(3);
        expect(result.generated.text).toBe('héllo 👋 wörld');
        expect(result.firstEventAt).toBe(7);
        // Forwarded as is: the same chunk objects, nothing added at the end.
        chunks.forEach((chunk, index) => {
          if (chunk.length > 0) expect(outputs[index]).toBe(chunk);
        });
        expect(outputs.at(-1)?.length).toBe(0);
      }
    }
  });

  it('reads a stream fed one byte at a time, from Buffers as from plain Uint8Arrays', () => {
    const bytes = toBytes(STREAM.replaceAll('\n', '\r\n'));
    const single = Array.from(bytes, (byte) => Uint8Array.of(byte));
    expect(run(single, { eventNames: true }).seen).toEqual(EVENTS);
    expect(
      run(
        single.map((chunk) => Buffer.from(chunk)),
        { eventNames: true },
      ).seen,
    ).toEqual(EVENTS);
  });

  it('ignores event names unless asked and forgets a name at the blank line ending its event', () => {
    expect(run([toBytes(STREAM)]).seen.map((event) => event.name)).toEqual([undefined, undefined, undefined]);
    const { seen } = run([toBytes('event: a\n\ndata: {}\n\n')], { eventNames: true });
    expect(seen).toEqual([{ data: '{}', name: undefined }]);
  });

  it('reads a final event that has no blank line or no line end at all', () => {
    for (const tail of ['data: {"text":"last"}\n', 'data: {"text":"last"}', 'data: {"text":"last"}\r\n']) {
      const bytes = toBytes(`data: {"text":"a"}\r\n\r\n${tail}`);
      for (let cut = 0; cut <= bytes.length; cut++) {
        const { seen, result } = run(splitAt(bytes, [cut]));
        expect(seen.map((event) => event.data)).toEqual(['{"text":"a"}', '{"text":"last"}']);
        expect(result.generated.text).toBe('alast');
      }
    }
  });

  it('counts a malformed JSON event and reports it during the push that completes it', () => {
    const reported: Array<[string, number]> = [];
    let pushes = 0;
    const { tap } = recordingTap({}, { onMalformedEvent: (data) => reported.push([data, pushes]) });
    tap.push(toBytes('data: {"text":"ok"}\n\ndata: {"text":'));
    pushes++;
    tap.push(toBytes(' broken\r\n\r\ndata: {"text":"after"}\n\n'));
    pushes++;
    tap.finish();
    expect(reported).toEqual([['{"text": broken', 1]]);
    expect(tap.result()).toMatchObject({ malformedEvents: 1, eventCount: 3 });
    expect(tap.result().generated.text).toBe('okafter');
  });

  it('skips a BOM at the start of the stream only', () => {
    const bytes = toBytes('\uFEFFdata: {"text":"x"}\n\ndata: \uFEFF{}\n\n');
    const { seen, text } = run(splitAt(bytes, [1, 2]));
    expect(seen.map((event) => event.data)).toEqual(['{"text":"x"}', '\uFEFF{}']);
    expect(text).toBe('\uFEFFdata: {"text":"x"}\n\ndata: \uFEFF{}\n\n');
  });

  it('counts empty data lines as events unless skipEmptyData is set', () => {
    const bytes = toBytes('data:\n\ndata: \r\n\r\ndata: {}\n\n');
    expect(run([bytes]).result.eventCount).toBe(3);
    const skipped = run([bytes], { skipEmptyData: true });
    expect(skipped.result.eventCount).toBe(1);
    expect(skipped.seen).toEqual([{ data: '{}', name: undefined }]);
  });

  it('drops an event line and its blank line, split at every position, and never forwards a reused buffer', () => {
    const text = 'data: {"text":"a"}\r\n\r\ndata: "drop"\r\n\r\ndata: {"text":"b"}\r\n\r\n';
    const expected = 'data: {"text":"a"}\r\n\r\ndata: {"text":"b"}\r\n\r\n';
    const bytes = toBytes(text);
    for (let first = 0; first <= bytes.length; first++) {
      for (const second of [first, Math.min(first + 5, bytes.length), bytes.length]) {
        const { tap, seen } = recordingTap({ mayDropEvents: true });
        const forwarded: Buffer[] = [];
        // The producer reuses one buffer: every forwarded chunk must already be copied out.
        for (const chunk of splitAt(bytes, [first, second])) {
          const reused = Buffer.from(chunk);
          forwarded.push(Buffer.from(tap.push(reused)));
          reused.fill(0);
        }
        forwarded.push(Buffer.from(tap.finish()));
        expect(Buffer.concat(forwarded).toString('utf8'), `cuts ${first}/${second}`).toBe(expected);
        expect(seen).toHaveLength(3);
      }
    }
  });

  it('holds back an unfinished line in line mode and writes the endOfStream trailer after it', () => {
    const { tap } = recordingTap(
      { mayDropEvents: true },
      { endOfStream: (result) => `: ${result.eventCount}\n` },
    );
    expect(tap.push(toBytes('data: {}\n\ndata: {"te')).length).toBe('data: {}\n\n'.length);
    expect(tap.push(toBytes('xt":1}')).length).toBe(0);
    expect(Buffer.from(tap.finish()).toString()).toBe('data: {"text":1}: 2\n');
  });

  it('forwards without parsing once a line grows beyond the limit', () => {
    const { tap, seen } = recordingTap();
    const huge = new Uint8Array(16 * 1024 * 1024 + 1).fill(0x61);
    expect(tap.push(huge)).toBe(huge);
    const rest = toBytes('\ndata: {}\n\n');
    expect(tap.push(rest)).toBe(rest);
    tap.finish();
    expect(seen).toEqual([]);
    expect(tap.result().malformedEvents).toBe(1);
  });

  it('works as a TransformStream, once', async () => {
    const bytes = toBytes(STREAM);
    const { tap, seen } = recordingTap();
    const response = new Response(new Blob([bytes]).stream().pipeThrough(tap.stream()));
    expect(new Uint8Array(await response.arrayBuffer())).toEqual(bytes);
    expect(seen).toHaveLength(3);
    expect(() => tap.stream()).toThrow(/only be called once/);
  });
});
