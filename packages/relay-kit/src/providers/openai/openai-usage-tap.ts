import type { FinishReason } from '../../spec/finish-reason.js';
import type {
  PassthroughTap,
  PassthroughTapOptions,
  PassthroughTapResult,
} from '../../spec/passthrough-tap.js';
import { UpstreamError } from '../../spec/upstream-error.js';
import { isEmptyUsage, type Usage } from '../../spec/usage.js';
import { concatBytes, NO_BYTES } from '../../util/bytes.js';
import { GeneratedTextCollector } from '../../util/generated-text-collector.js';
import { maskSensitive } from '../../util/mask-sensitive.js';
import { classifyUpstreamError } from '../classify-upstream-error.js';
import { convertOpenAIUsage } from './convert-openai-usage.js';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.js';
import type { OpenAIChatChunk, OpenAIChunkChoice, OpenAIMessageLike } from './openai-api.js';
import { type OpenAIChunkVisitor, scanOpenAIChunk } from './openai-chunk-scanner.js';
import { extractOpenAIErrorFacts } from './openai-error.js';

/** Default for `PassthroughTapOptions.maxCollectedChars`. */
export const DEFAULT_MAX_COLLECTED_CHARS = 262_144;
/** Beyond this many characters in one unfinished line the tap stops parsing and only forwards. */
const MAX_LINE_CHARS = 16 * 1024 * 1024;

const encoder = new TextEncoder();

/**
 * Creates the pass-through tap for OpenAI-format streams (chat completions and legacy
 * completions): upstream bytes go to the client unchanged while the tap reads usage, finish
 * reason, first-event time and (for local counting) the generated text.
 *
 * Hot-path rules: a chunk is decoded once with a streaming `TextDecoder`; only lines starting with
 * `data:` are inspected; an event is `JSON.parse`d only when it carries a non-null `"usage"` or an
 * `"error"` (normally once per stream); text, finish reason and ids are read by a single-pass
 * scanner (`scanOpenAIChunk`, about a third of the cost of `JSON.parse`). Without `dropUsageOnlyChunk` and `endOfStream` every input chunk is returned as is (same
 * object, zero copy). With them, the tap forwards whole lines only and holds back an unfinished
 * line until its end arrives, so a line can be removed even when it was split across chunks.
 *
 * Lines end with LF or CRLF (bare-CR line ends, which no OpenAI-compatible upstream uses, are
 * forwarded but not parsed). Each `data:` line is one payload, like new-api's scanner.
 */
/** True when the text's last non-blank character is `}` (cheap pre-check before a parse). */
function endsLikeObject(text: string): boolean {
  for (let index = text.length - 1; index >= 0; index--) {
    const code = text.charCodeAt(index);
    if (code === 32 || code === 9 || code === 13) continue;
    return code === 125;
  }
  return false;
}

export function createOpenAIUsageTap(options: PassthroughTapOptions = {}): PassthroughTap {
  const onMalformedEvent = options.onMalformedEvent;
  const dropUsageOnlyChunk = options.dropUsageOnlyChunk === true;
  const endOfStream = options.endOfStream;
  const collectText = options.collectText !== false;
  const maxCollectedChars = options.maxCollectedChars ?? DEFAULT_MAX_COLLECTED_CHARS;
  const now = options.now ?? (() => performance.now());
  // Line-exact forwarding is only needed when the tap may remove a line.
  const lineMode = dropUsageOnlyChunk || endOfStream !== undefined;

  const decoder = new TextDecoder();
  let partial = '';
  let parsing = true;
  let held: Uint8Array[] = [];
  let skipBlankLine = false;
  let finished = false;

  let usage: Usage | undefined;
  let finishReason: FinishReason | undefined;
  let rawFinishReason: string | undefined;
  let firstEventAt: number | undefined;
  let eventCount = 0;
  let sawDone = false;
  let droppedUsageChunk = false;
  let streamError: UpstreamError | undefined;
  let responseId: string | undefined;
  let identityScanned = false;
  let model: string | undefined;
  let malformedEvents = 0;
  const generated = new GeneratedTextCollector(maxCollectedChars);

  const recordFinishReason = (raw: string | null | undefined) => {
    if (typeof raw !== 'string' || raw === '') return;
    rawFinishReason = raw;
    finishReason = mapOpenAIFinishReason(raw);
  };

  /** Handles a parsed chunk (usage or error events). Returns true when it is usage-only. */
  const handleParsedChunk = (chunk: OpenAIChatChunk) => {
    if (responseId === undefined && typeof chunk.id === 'string') responseId = chunk.id;
    if (model === undefined && typeof chunk.model === 'string') model = chunk.model;
    const choices = Array.isArray(chunk.choices) ? chunk.choices : [];
    let found = convertOpenAIUsage(chunk.usage);
    for (const choice of choices as Array<OpenAIChunkChoice & { text?: unknown }>) {
      if (typeof choice !== 'object' || choice === null) continue;
      recordFinishReason(choice.finish_reason);
      if (collectText) {
        collectOpenAIMessage(generated, choice.delta);
        // Legacy completions stream `text` instead of a delta.
        if (typeof choice.text === 'string') generated.append(choice.text);
      }
      // Moonshot reports stream usage inside the choice.
      if (found === undefined) found = convertOpenAIUsage(choice.usage);
    }
    if (found !== undefined && (usage === undefined || !isEmptyUsage(found))) usage = found;
    return found !== undefined && choices.length === 0;
  };

  const visitor: OpenAIChunkVisitor = {
    text: (text) => generated.append(text),
    toolCall: (name) => generated.toolCall(name),
    finishReason: recordFinishReason,
    identity(id, reportedModel) {
      responseId = id;
      model = reportedModel;
    },
  };
  const scanVisitor: OpenAIChunkVisitor = collectText
    ? visitor
    : { text() {}, toolCall() {}, finishReason: recordFinishReason, identity: visitor.identity };

  /** Inspects one `data:` payload; returns false when the line must not be forwarded. */
  const handleData = (payload: string): boolean => {
    eventCount++;
    if (firstEventAt === undefined) firstEventAt = now();
    if (payload === '[DONE]') {
      sawDone = true;
      return endOfStream === undefined;
    }
    // One pass over the chunk without JSON.parse; only usage and error chunks are parsed.
    const wantIdentity = !identityScanned;
    identityScanned = true;
    // The scan does not validate JSON; a chunk that cannot end an object is checked for real.
    if (!endsLikeObject(payload) && parseJson(payload) === undefined) {
      malformedEvents++;
      onMalformedEvent?.(payload);
      return true;
    }
    generated.checkpoint();
    if (!scanOpenAIChunk(payload, scanVisitor, wantIdentity)) return true;
    const chunk = parseJson(payload);
    if (chunk === undefined) {
      // Keep what the scan read: it is all we will get from this event.
      malformedEvents++;
      onMalformedEvent?.(payload);
      return true;
    }
    // The full parse below reports this event's text again.
    generated.rollback();
    if (chunk.error !== undefined && chunk.error !== null && !Array.isArray(chunk.choices)) {
      streamError = streamErrorFrom(payload);
      return true;
    }
    const usageOnly = handleParsedChunk(chunk);
    if (usageOnly && dropUsageOnlyChunk) {
      droppedUsageChunk = true;
      return false;
    }
    return true;
  };

  /** Inspects one complete line (without its line end); returns false to drop it. */
  const handleLine = (line: string): boolean => {
    const length = line.length;
    const end = length > 0 && line.charCodeAt(length - 1) === 13 ? length - 1 : length;
    if (end === 0) {
      if (skipBlankLine) {
        skipBlankLine = false;
        return false;
      }
      return true;
    }
    skipBlankLine = false;
    if (!line.startsWith('data:')) return true;
    const start = line.charCodeAt(5) === 32 ? 6 : 5;
    const keep = handleData(line.slice(start, end));
    // Drop the blank line that ends a dropped event too.
    if (!keep) skipBlankLine = true;
    return keep;
  };

  /** Parses every complete line of `text`; keeps the unfinished rest in `partial`. */
  const parseText = (text: string) => {
    let start = 0;
    let newline = text.indexOf('\n');
    while (newline !== -1) {
      const line =
        start === 0 && partial !== '' ? partial + text.slice(0, newline) : text.slice(start, newline);
      if (start === 0) partial = '';
      handleLine(line);
      start = newline + 1;
      newline = text.indexOf('\n', start);
    }
    partial = start === 0 ? partial + text : text.slice(start);
    if (partial.length > MAX_LINE_CHARS) stopParsing();
  };

  /** Line mode: parse and decide per line which bytes to forward. */
  const pushLines = (chunk: Uint8Array, text: string): Uint8Array => {
    const out: Uint8Array[] = [];
    let textStart = 0;
    let byteStart = 0;
    let keptFrom = 0;
    let newline = text.indexOf('\n');
    while (newline !== -1) {
      const byteNewline = chunk.indexOf(10, byteStart);
      const line =
        textStart === 0 && partial !== '' ? partial + text.slice(0, newline) : text.slice(textStart, newline);
      if (textStart === 0) partial = '';
      if (handleLine(line)) {
        if (held.length > 0) {
          for (const piece of held) out.push(piece);
          held = [];
        }
      } else {
        held = [];
        if (keptFrom < byteStart) out.push(chunk.subarray(keptFrom, byteStart));
        keptFrom = byteNewline + 1;
      }
      textStart = newline + 1;
      byteStart = byteNewline + 1;
      newline = text.indexOf('\n', textStart);
    }
    if (keptFrom < byteStart) out.push(chunk.subarray(keptFrom, byteStart));
    partial = textStart === 0 ? partial + text : text.slice(textStart);
    // Hold the unfinished line, copied (`Buffer#slice` would only be a view of a reusable buffer).
    if (byteStart < chunk.length) held.push(new Uint8Array(chunk.subarray(byteStart)));
    if (partial.length > MAX_LINE_CHARS) {
      for (const piece of held) out.push(piece);
      held = [];
      stopParsing();
    }
    return concatBytes(out);
  };

  const stopParsing = () => {
    parsing = false;
    partial = '';
    malformedEvents++;
  };

  const push = (chunk: Uint8Array): Uint8Array => {
    if (finished || chunk.length === 0) return chunk;
    if (!parsing) return chunk;
    const text = decoder.decode(chunk, { stream: true });
    if (!lineMode) {
      parseText(text);
      return chunk;
    }
    return pushLines(chunk, text);
  };

  const finish = (): Uint8Array => {
    if (finished) return NO_BYTES;
    finished = true;
    const out: Uint8Array[] = [];
    if (parsing) {
      const tail = partial + decoder.decode();
      partial = '';
      // A last line without a line end still counts (upstreams that close right after it).
      const keep = tail === '' || handleLine(tail);
      if (keep) for (const piece of held) out.push(piece);
    } else {
      for (const piece of held) out.push(piece);
    }
    held = [];
    if (endOfStream !== undefined) {
      const trailer = endOfStream(result());
      if (trailer !== undefined) out.push(typeof trailer === 'string' ? encoder.encode(trailer) : trailer);
    }
    return concatBytes(out);
  };

  const result = (): PassthroughTapResult => ({
    usage,
    finishReason,
    rawFinishReason,
    firstEventAt,
    eventCount,
    sawDone,
    droppedUsageChunk,
    error: streamError,
    responseId,
    model,
    generated: generated.result(),
    malformedEvents,
  });

  let streamCreated = false;
  return {
    push,
    finish,
    result,
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

function parseJson(payload: string): OpenAIChatChunk | undefined {
  try {
    const value: unknown = JSON.parse(payload);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as OpenAIChatChunk)
      : undefined;
  } catch {
    return undefined;
  }
}

function streamErrorFrom(payload: string): UpstreamError {
  const facts = extractOpenAIErrorFacts(500, payload);
  const classification = classifyUpstreamError(facts);
  return new UpstreamError({
    status: 200,
    code: 'upstream:stream_error',
    message: maskSensitive(facts.message),
    type: facts.type,
    upstreamCode: facts.code,
    param: facts.param,
    // Bytes already reached the client: the call cannot be retried.
    retryable: false,
    channelFault: classification.channelFault,
    rawBody: payload,
  });
}

/** Adds the generated text of a parsed delta (or message) to `collector`. */
function collectOpenAIMessage(
  collector: GeneratedTextCollector,
  delta: OpenAIMessageLike | null | undefined,
): void {
  if (delta === null || delta === undefined || typeof delta !== 'object') return;
  if (typeof delta.content === 'string') collector.append(delta.content);
  if (typeof delta.reasoning_content === 'string') collector.append(delta.reasoning_content);
  else if (typeof delta.reasoning === 'string') collector.append(delta.reasoning);
  if (Array.isArray(delta.tool_calls)) {
    for (const call of delta.tool_calls) {
      const name = call?.function?.name;
      if (typeof name === 'string' && name !== '') collector.toolCall(name);
      if (typeof call?.function?.arguments === 'string') collector.append(call.function.arguments);
    }
  }
  const legacy = delta.function_call;
  if (legacy !== null && legacy !== undefined && typeof legacy === 'object') {
    if (typeof legacy.name === 'string' && legacy.name !== '') collector.toolCall(legacy.name);
    if (typeof legacy.arguments === 'string') collector.append(legacy.arguments);
  }
}
