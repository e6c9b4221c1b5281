import type { FinishReason } from '../../spec/finish-reason.js';
import type {
  PassthroughTap,
  PassthroughTapOptions,
  PassthroughTapResult,
} from '../../spec/passthrough-tap.js';
import type { UpstreamError } from '../../spec/upstream-error.js';
import type { Usage } from '../../spec/usage.js';
import { concatBytes, NO_BYTES } from '../../util/bytes.js';
import { GeneratedTextCollector } from '../../util/generated-text-collector.js';
import { DEFAULT_MAX_COLLECTED_CHARS } from '../openai/openai-usage-tap.js';
import { convertGeminiUsage } from './convert-gemini-usage.js';
import type { GeminiResponse } from './gemini-api.js';
import { isRecord } from './gemini-api.js';
import { geminiStreamError } from './gemini-stream-transformer.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';

/** Beyond this many characters in one unfinished line the tap stops parsing and only forwards. */
const MAX_LINE_CHARS = 16 * 1024 * 1024;
const encoder = new TextEncoder();

/**
 * The pass-through tap for Gemini SSE streams (`streamGenerateContent?alt=sse`, CRLF or LF line
 * ends): every upstream chunk is returned as is while the tap parses each `data:` line and reads
 * `usageMetadata` (the last one wins: Google repeats a running count on every chunk and the full
 * count on the last), the finish reason, response id and model version, and the generated text
 * (answer, thoughts, function call names and arguments) for local counting. Gemini has no end
 * marker: `sawDone` means a finish reason arrived. `dropUsageOnlyChunk` does not apply (the
 * gateway never forces usage on Gemini); `endOfStream`'s result is appended when the upstream ends.
 */
export function createGeminiUsageTap(options: PassthroughTapOptions = {}): PassthroughTap {
  const onMalformedEvent = options.onMalformedEvent;
  const collectText = options.collectText !== false;
  const endOfStream = options.endOfStream;
  const now = options.now ?? (() => performance.now());
  const generated = new GeneratedTextCollector(options.maxCollectedChars ?? DEFAULT_MAX_COLLECTED_CHARS);
  const decoder = new TextDecoder();
  let partial = '';
  let parsing = true;
  let finished = false;

  let usage: Usage | undefined;
  let finishReason: FinishReason | undefined;
  let rawFinishReason: string | undefined;
  let firstEventAt: number | undefined;
  let eventCount = 0;
  let sawDone = false;
  let streamError: UpstreamError | undefined;
  let responseId: string | undefined;
  let model: string | undefined;
  let malformedEvents = 0;
  let sawFunctionCall = false;

  const handleChunk = (chunk: GeminiResponse, payload: string) => {
    if (chunk.error !== undefined && chunk.candidates === undefined) {
      streamError = geminiStreamError(payload);
      return;
    }
    if (responseId === undefined && typeof chunk.responseId === 'string') responseId = chunk.responseId;
    if (model === undefined && typeof chunk.modelVersion === 'string') model = chunk.modelVersion;
    const candidates = Array.isArray(chunk.candidates) ? chunk.candidates : [];
    for (const candidate of candidates) {
      if (typeof candidate !== 'object' || candidate === null) continue;
      const parts =
        isRecord(candidate.content) && Array.isArray(candidate.content.parts) ? candidate.content.parts : [];
      for (const part of parts) {
        if (!isRecord(part)) continue;
        if (isRecord(part.functionCall)) {
          sawFunctionCall = true;
          if (collectText) {
            generated.toolCall(String(part.functionCall.name ?? ''));
            generated.append(JSON.stringify(part.functionCall.args ?? {}));
          }
        } else if (collectText && typeof part.text === 'string') {
          generated.append(part.text);
        }
      }
      const reason = mapGeminiFinishReason(candidate.finishReason, sawFunctionCall);
      if (reason !== undefined) {
        finishReason = reason;
        rawFinishReason = candidate.finishReason ?? undefined;
        sawDone = true;
      }
    }
    const blockReason = chunk.promptFeedback?.blockReason;
    if (candidates.length === 0 && typeof blockReason === 'string' && blockReason !== '') {
      finishReason = 'content-filter';
      rawFinishReason = blockReason;
      sawDone = true;
    }
    const found = convertGeminiUsage(chunk.usageMetadata);
    if (found !== undefined) usage = found;
  };

  const handleLine = (line: string) => {
    if (!line.startsWith('data:')) return;
    const end = line.charCodeAt(line.length - 1) === 13 ? line.length - 1 : line.length;
    const payload = line.slice(line.charCodeAt(5) === 32 ? 6 : 5, end);
    if (payload === '') return;
    eventCount++;
    if (firstEventAt === undefined) firstEventAt = now();
    let parsed: unknown;
    try {
      parsed = JSON.parse(payload);
    } catch {
      malformedEvents++;
      onMalformedEvent?.(payload);
      return;
    }
    if (isRecord(parsed)) handleChunk(parsed as GeminiResponse, payload);
    else malformedEvents++;
  };

  const push = (chunk: Uint8Array): Uint8Array => {
    if (finished || !parsing || chunk.length === 0) return chunk;
    const text = decoder.decode(chunk, { stream: true });
    let start = 0;
    let newline = text.indexOf('\n');
    while (newline !== -1) {
      handleLine(
        start === 0 && partial !== '' ? partial + text.slice(0, newline) : text.slice(start, newline),
      );
      if (start === 0) partial = '';
      start = newline + 1;
      newline = text.indexOf('\n', start);
    }
    partial = start === 0 ? partial + text : text.slice(start);
    if (partial.length > MAX_LINE_CHARS) {
      parsing = false;
      partial = '';
      malformedEvents++;
    }
    return chunk;
  };

  const finish = (): Uint8Array => {
    if (finished) return NO_BYTES;
    finished = true;
    if (parsing) {
      const tail = partial + decoder.decode();
      partial = '';
      if (tail !== '') handleLine(tail);
    }
    if (endOfStream === undefined) return NO_BYTES;
    const trailer = endOfStream(result());
    if (trailer === undefined) return NO_BYTES;
    return concatBytes([typeof trailer === 'string' ? encoder.encode(trailer) : trailer]);
  };

  const result = (): PassthroughTapResult => ({
    usage,
    finishReason,
    rawFinishReason,
    firstEventAt,
    eventCount,
    sawDone,
    droppedUsageChunk: false,
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
