import type { PassthroughTap, PassthroughTapOptions } from '../spec/passthrough-tap.js';
import { concatBytes, NO_BYTES } from '../util/bytes.js';
import { TapFindings } from './tap-findings.js';

/** Beyond this many bytes in one unfinished line the tap stops parsing and only forwards. */
export const MAX_LINE_BYTES = 16 * 1024 * 1024;

const LF = 10;
const CR = 13;
const SPACE = 32;
const encoder = new TextEncoder();

/** How one protocol's events are read; made per tap by the provider (see {@link createSseUsageTap}). */
export interface SseTapFormat {
  /** Decode `event:` lines and pass the name with each event's data (Anthropic). */
  readonly eventNames?: boolean | undefined;
  /** A `data:` line with nothing after the prefix is not an event (not counted, not read). */
  readonly skipEmptyData?: boolean | undefined;
  /**
   * The reader may drop events (`read` answers false): the tap then forwards whole lines only and
   * holds back an unfinished line until its end arrives.
   */
  readonly mayDropEvents?: boolean | undefined;
  /**
   * Reads one event's data (the text after `data:` and one optional space, line end excluded),
   * already counted in `eventCount`. Answers false to drop the event's line and the blank line
   * after it (only with `mayDropEvents`).
   */
  read(data: string, eventName: string | undefined): boolean | undefined;
}

/**
 * The skeleton of every pass-through usage tap over SSE: upstream bytes go to the client
 * unchanged while each `data:` line is handed to the protocol's {@link SseTapFormat.read}.
 *
 * Hot-path rules: chunks are scanned as bytes (`Buffer#indexOf`, memchr) for line ends and only
 * the data of `data:` lines (and `event:` names when asked) is decoded to a string, once; other
 * lines (blank lines, `event:`, comments) are never decoded. A line split across chunks is
 * gathered in one reusable carry buffer, so a split UTF-8 sequence is decoded whole. Without
 * `mayDropEvents` every input chunk is returned as is (same object, zero copy).
 *
 * Lines end with LF or CRLF (bare-CR line ends are forwarded but not parsed); a BOM at the start
 * of the stream is skipped; a last line without a line end is read by `finish`. A line longer
 * than {@link MAX_LINE_BYTES} stops the parsing (counted as one malformed event).
 */
export function createSseUsageTap(
  options: PassthroughTapOptions,
  createFormat: (findings: TapFindings) => SseTapFormat,
): PassthroughTap {
  const findings = new TapFindings(options);
  const format = createFormat(findings);
  const eventNames = format.eventNames === true;
  const skipEmptyData = format.skipEmptyData === true;
  const lineMode = format.mayDropEvents === true;
  const endOfStream = options.endOfStream;

  let carry: Buffer = Buffer.alloc(0);
  let carried = 0;
  let atStart = true;
  let parsing = true;
  let finished = false;
  let eventName: string | undefined;
  let skipBlankLine = false;
  /** Line mode: the pieces of the chunk being forwarded (reused between chunks). */
  const pieces: Uint8Array[] = [];

  /** Reads the line `bytes[start, end)` (line end excluded); answers false to drop it. */
  const readLine = (bytes: Buffer, start: number, end: number): boolean => {
    if (atStart) {
      atStart = false;
      if (end - start >= 3 && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf)
        start += 3;
    }
    if (end > start && bytes[end - 1] === CR) end--;
    if (end === start) {
      eventName = undefined;
      if (!skipBlankLine) return true;
      skipBlankLine = false;
      return false;
    }
    skipBlankLine = false;
    if (isField(bytes, start, end, DATA)) {
      let from = start + DATA.length;
      if (from < end && bytes[from] === SPACE) from++;
      if (from === end && skipEmptyData) return true;
      findings.countEvent();
      if (format.read(from === end ? '' : decode(bytes, from, end), eventName) !== false) return true;
      skipBlankLine = lineMode;
      return !lineMode;
    }
    if (eventNames && isField(bytes, start, end, EVENT)) {
      let from = start + EVENT.length;
      if (from < end && bytes[from] === SPACE) from++;
      eventName = decode(bytes, from, end);
    }
    return true;
  };

  /** Adds `bytes[from, to)` to the unfinished line. */
  const hold = (bytes: Buffer, from: number, to: number) => {
    const needed = carried + to - from;
    if (needed > carry.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, carry.length * 2, 1024));
      carry.copy(grown, 0, 0, carried);
      carry = grown;
    }
    // A short tail is copied by hand: `Buffer#copy` makes a view per call.
    if (to - from <= 256) for (let index = from; index < to; index++) carry[carried++] = bytes[index]!;
    else bytes.copy(carry, carried, from, to);
    carried = needed;
  };

  /** The unfinished line is done with: forget it (and a buffer grown for a very long line). */
  const release = () => {
    carried = 0;
    if (carry.length > 65_536) carry = Buffer.alloc(0);
  };

  const stopParsing = () => {
    parsing = false;
    findings.malformedEvents++;
  };

  /** Reads every complete line of a chunk; keeps the unfinished rest. */
  const scan = (bytes: Buffer) => {
    let start = 0;
    let newline = bytes.indexOf(LF);
    if (newline !== -1 && carried > 0) {
      hold(bytes, 0, newline);
      readLine(carry, 0, carried);
      release();
      start = newline + 1;
      newline = bytes.indexOf(LF, start);
    }
    while (newline !== -1) {
      readLine(bytes, start, newline);
      start = newline + 1;
      newline = bytes.indexOf(LF, start);
    }
    if (start < bytes.length) {
      hold(bytes, start, bytes.length);
      if (carried > MAX_LINE_BYTES) {
        release();
        stopParsing();
      }
    }
  };

  /** Line mode: reads the lines and answers the bytes to forward now (whole lines only). */
  const scanLines = (chunk: Uint8Array, bytes: Buffer): Uint8Array => {
    let carriedLine = false;
    let start = 0;
    let keptFrom = 0;
    let newline = bytes.indexOf(LF);
    if (newline !== -1 && carried > 0) {
      hold(bytes, 0, newline + 1);
      carriedLine = readLine(carry, 0, carried - 1);
      if (carriedLine) pieces.push(carry.subarray(0, carried));
      else release();
      start = keptFrom = newline + 1;
      newline = bytes.indexOf(LF, start);
    }
    while (newline !== -1) {
      if (!readLine(bytes, start, newline)) {
        if (keptFrom < start) pieces.push(chunk.subarray(keptFrom, start));
        keptFrom = newline + 1;
      }
      start = newline + 1;
      newline = bytes.indexOf(LF, start);
    }
    if (keptFrom < start)
      pieces.push(keptFrom === 0 && start === chunk.length ? chunk : chunk.subarray(keptFrom, start));
    // The carry buffer is reused: what is forwarded from it must be a copy. `Buffer.concat` takes
    // small copies from Node's pool (a `new Uint8Array` per chunk would allocate off-heap memory).
    let out =
      pieces.length === 1 && !carriedLine
        ? pieces[0]!
        : pieces.length === 0
          ? NO_BYTES
          : Buffer.concat(pieces);
    pieces.length = 0;
    if (carriedLine) release();
    if (start < chunk.length) {
      // `hold` copies: a chunk's bytes may be reused by its producer after this call.
      hold(bytes, start, bytes.length);
      if (carried > MAX_LINE_BYTES) {
        out = Buffer.concat([out, carry.subarray(0, carried)]);
        release();
        stopParsing();
      }
    }
    return out;
  };

  const push = (chunk: Uint8Array): Uint8Array => {
    if (finished || !parsing || chunk.length === 0) return chunk;
    const bytes = Buffer.isBuffer(chunk)
      ? chunk
      : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (lineMode) return scanLines(chunk, bytes);
    scan(bytes);
    return chunk;
  };

  const finish = (): Uint8Array => {
    if (finished) return NO_BYTES;
    finished = true;
    let tail: Uint8Array = NO_BYTES;
    if (parsing && carried > 0) {
      // A last line without a line end still counts (upstreams that close right after it).
      if (readLine(carry, 0, carried) && lineMode) tail = Buffer.from(carry.subarray(0, carried));
    }
    release();
    const trailer = endOfStream?.(findings.result());
    if (trailer === undefined) return tail;
    return concatBytes([tail, typeof trailer === 'string' ? encoder.encode(trailer) : trailer]);
  };

  let streamCreated = false;
  return {
    push,
    finish,
    result: () => findings.result(),
    stream() {
      if (streamCreated) throw new Error('PassthroughTap.stream() may only be called once');
      streamCreated = true;
      return new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          const out = push(chunk);
          if (out.length > 0) controller.enqueue(out);
        },
        flush(controller) {
          const out = finish();
          if (out.length > 0) controller.enqueue(out);
        },
      });
    },
  };
}

/** UTF-8 text of `bytes[start, end)` (Node's `utf8Slice`: `toString` without its argument checks). */
const decode: (bytes: Buffer, start: number, end: number) => string =
  typeof (Buffer.prototype as { utf8Slice?: unknown }).utf8Slice === 'function'
    ? (bytes, start, end) =>
        (bytes as Buffer & { utf8Slice(start: number, end: number): string }).utf8Slice(start, end)
    : (bytes, start, end) => bytes.toString('utf8', start, end);

const DATA = [0x64, 0x61, 0x74, 0x61, 0x3a]; // "data:"
const EVENT = [0x65, 0x76, 0x65, 0x6e, 0x74, 0x3a]; // "event:"

/** True when the line `bytes[start, end)` starts with the field name `name` (colon included). */
function isField(bytes: Buffer, start: number, end: number, name: readonly number[]): boolean {
  if (end - start < name.length) return false;
  for (let index = 0; index < name.length; index++) if (bytes[start + index] !== name[index]) return false;
  return true;
}
