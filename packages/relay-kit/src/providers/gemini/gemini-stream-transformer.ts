import type { RelayCall } from '../../spec/relay-call.js';
import type { SseEvent } from '../../spec/sse-event.js';
import type { StreamPart } from '../../spec/stream-part.js';
import { UpstreamError } from '../../spec/upstream-error.js';
import { maskSensitive } from '../../util/mask-sensitive.js';
import { classifyUpstreamError } from '../classify-upstream-error.js';
import { malformedStreamEventError } from '../malformed-stream-event.js';
import { convertGeminiUsage } from './convert-gemini-usage.js';
import type { GeminiResponse } from './gemini-api.js';
import { extractGeminiErrorFacts } from './gemini-error.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';
import { readGeminiParts } from './read-gemini-parts.js';

/**
 * Turns Gemini SSE events (`streamGenerateContent?alt=sse`) into {@link StreamPart}s: one
 * `message-start` (responseId, modelVersion), then per candidate its text, thoughts
 * (`reasoning-delta`), function calls (one `tool-call-delta` each, with the full arguments),
 * `finish` (`STOP` becomes `tool-calls` when the candidate called a function), `usage` whenever
 * `usageMetadata` arrives (the last one wins), and `error` for an in-stream error object. A
 * prompt blocked by `promptFeedback.blockReason` finishes with `content-filter`. Events that are
 * not JSON are skipped; a stream that ends before any finish reason ends with an `error` part.
 */
export function createGeminiStreamTransformer(_call: RelayCall): TransformStream<SseEvent, StreamPart> {
  let started = false;
  let finished = false;
  let failed = false;
  const toolCallCounts = new Map<number, number>();
  return new TransformStream<SseEvent, StreamPart>({
    transform(event, controller) {
      if (failed || event.data === '' || event.data === '[DONE]') return;
      let chunk: GeminiResponse;
      try {
        chunk = JSON.parse(event.data) as GeminiResponse;
      } catch {
        failed = true;
        controller.enqueue({ type: 'error', error: malformedStreamEventError() });
        return;
      }
      if (typeof chunk !== 'object' || chunk === null || Array.isArray(chunk)) return;
      if (chunk.error !== undefined && chunk.candidates === undefined) {
        failed = true;
        controller.enqueue({ type: 'error', error: geminiStreamError(event.data) });
        return;
      }
      if (!started) {
        started = true;
        controller.enqueue({
          type: 'message-start',
          id: typeof chunk.responseId === 'string' ? chunk.responseId : '',
          model: typeof chunk.modelVersion === 'string' ? chunk.modelVersion : '',
        });
      }
      const candidates = Array.isArray(chunk.candidates) ? chunk.candidates : [];
      candidates.forEach((candidate, position) => {
        if (typeof candidate !== 'object' || candidate === null) return;
        const index = typeof candidate.index === 'number' ? candidate.index : position;
        for (const item of readGeminiParts(candidate.content)) {
          if (item.kind === 'text') controller.enqueue({ type: 'text-delta', index, delta: item.text });
          else if (item.kind === 'reasoning')
            controller.enqueue({ type: 'reasoning-delta', index, delta: item.text });
          else {
            const toolCallIndex = toolCallCounts.get(index) ?? 0;
            toolCallCounts.set(index, toolCallIndex + 1);
            controller.enqueue({
              type: 'tool-call-delta',
              index,
              toolCallIndex,
              id: item.id,
              name: item.name,
              argumentsDelta: item.arguments,
            });
          }
        }
        const reason = mapGeminiFinishReason(candidate.finishReason, toolCallCounts.has(index));
        if (reason !== undefined) {
          finished = true;
          controller.enqueue({
            type: 'finish',
            index,
            reason,
            rawReason: candidate.finishReason ?? undefined,
          });
        }
      });
      const blockReason = chunk.promptFeedback?.blockReason;
      if (candidates.length === 0 && typeof blockReason === 'string' && blockReason !== '') {
        finished = true;
        controller.enqueue({ type: 'finish', index: 0, reason: 'content-filter', rawReason: blockReason });
      }
      const usage = convertGeminiUsage(chunk.usageMetadata);
      if (usage !== undefined) controller.enqueue({ type: 'usage', usage });
    },
    flush(controller) {
      if (failed || finished) return;
      controller.enqueue({
        type: 'error',
        error: new UpstreamError({
          status: 200,
          code: 'upstream:stream_error',
          message: 'the upstream stream ended before a finish reason',
          retryable: false,
          channelFault: false,
        }),
      });
    },
  });
}

/** An {@link UpstreamError} for an error object sent inside a Gemini stream. */
export function geminiStreamError(payload: string): UpstreamError {
  const facts = extractGeminiErrorFacts(500, payload);
  return new UpstreamError({
    status: 200,
    code: 'upstream:stream_error',
    message: maskSensitive(facts.message),
    type: facts.type,
    upstreamCode: facts.code,
    retryable: false,
    channelFault: classifyUpstreamError(facts).channelFault,
    rawBody: payload,
  });
}
