import type { RelayCall } from '../../spec/relay-call.js';
import type { SseEvent } from '../../spec/sse-event.js';
import type { StreamPart } from '../../spec/stream-part.js';
import { UpstreamError } from '../../spec/upstream-error.js';
import { maskSensitive } from '../../util/mask-sensitive.js';
import { classifyUpstreamError } from '../classify-upstream-error.js';
import { malformedStreamEventError } from '../malformed-stream-event.js';
import { convertOpenAIUsage } from './convert-openai-usage.js';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.js';
import type { OpenAIChatChunk, OpenAIChunkChoice } from './openai-api.js';
import { extractOpenAIErrorFacts } from './openai-error.js';

/**
 * Turns OpenAI chat (or legacy completions) stream events into {@link StreamPart}s, for clients
 * of another protocol. Emits `message-start` once, then deltas, `finish` per choice, `usage`
 * whenever the upstream reports it, and `error` for an in-stream error event. `[DONE]` and
 * events that are not JSON are skipped.
 */
export function createOpenAIStreamTransformer(_call: RelayCall): TransformStream<SseEvent, StreamPart> {
  let started = false;
  return new TransformStream<SseEvent, StreamPart>({
    transform(event, controller) {
      const data = event.data;
      if (data === '[DONE]' || data === '') return;
      let chunk: OpenAIChatChunk;
      try {
        chunk = JSON.parse(data) as OpenAIChatChunk;
      } catch {
        controller.enqueue({ type: 'error', error: malformedStreamEventError() });
        controller.terminate();
        return;
      }
      if (typeof chunk !== 'object' || chunk === null) return;
      if (chunk.error !== undefined && chunk.error !== null && !Array.isArray(chunk.choices)) {
        controller.enqueue({ type: 'error', error: streamError(data) });
        return;
      }
      if (!started) {
        started = true;
        controller.enqueue({
          type: 'message-start',
          id: typeof chunk.id === 'string' ? chunk.id : '',
          model: typeof chunk.model === 'string' ? chunk.model : '',
          created: typeof chunk.created === 'number' ? chunk.created : undefined,
        });
      }
      let usage = convertOpenAIUsage(chunk.usage);
      if (Array.isArray(chunk.choices)) {
        for (const choice of chunk.choices) {
          if (typeof choice !== 'object' || choice === null) continue;
          emitChoice(choice, controller);
          usage ??= convertOpenAIUsage(choice.usage);
        }
      }
      if (usage !== undefined) controller.enqueue({ type: 'usage', usage });
    },
  });
}

function emitChoice(
  choice: OpenAIChunkChoice & { text?: unknown },
  controller: TransformStreamDefaultController<StreamPart>,
): void {
  const index = typeof choice.index === 'number' ? choice.index : 0;
  const delta = choice.delta;
  if (typeof delta === 'object' && delta !== null) {
    const reasoning = typeof delta.reasoning_content === 'string' ? delta.reasoning_content : delta.reasoning;
    if (typeof reasoning === 'string' && reasoning !== '') {
      controller.enqueue({ type: 'reasoning-delta', index, delta: reasoning });
    }
    if (typeof delta.content === 'string' && delta.content !== '') {
      controller.enqueue({ type: 'text-delta', index, delta: delta.content });
    }
    if (Array.isArray(delta.tool_calls)) {
      delta.tool_calls.forEach((toolCall, position) => {
        if (typeof toolCall !== 'object' || toolCall === null) return;
        const fn = toolCall.function;
        controller.enqueue({
          type: 'tool-call-delta',
          index,
          toolCallIndex: typeof toolCall.index === 'number' ? toolCall.index : position,
          id: typeof toolCall.id === 'string' ? toolCall.id : undefined,
          name: typeof fn?.name === 'string' ? fn.name : undefined,
          argumentsDelta: typeof fn?.arguments === 'string' ? fn.arguments : '',
        });
      });
    }
    const legacy = delta.function_call;
    if (typeof legacy === 'object' && legacy !== null) {
      controller.enqueue({
        type: 'tool-call-delta',
        index,
        toolCallIndex: 0,
        name: typeof legacy.name === 'string' ? legacy.name : undefined,
        argumentsDelta: typeof legacy.arguments === 'string' ? legacy.arguments : '',
      });
    }
  }
  if (typeof choice.text === 'string' && choice.text !== '') {
    controller.enqueue({ type: 'text-delta', index, delta: choice.text });
  }
  const reason = mapOpenAIFinishReason(choice.finish_reason);
  if (reason !== undefined) {
    controller.enqueue({ type: 'finish', index, reason, rawReason: choice.finish_reason ?? undefined });
  }
}

function streamError(data: string): UpstreamError {
  const facts = extractOpenAIErrorFacts(500, data);
  return new UpstreamError({
    status: 200,
    code: 'upstream:stream_error',
    message: maskSensitive(facts.message),
    type: facts.type,
    upstreamCode: facts.code,
    param: facts.param,
    retryable: false,
    channelFault: classifyUpstreamError(facts).channelFault,
    rawBody: data,
  });
}
