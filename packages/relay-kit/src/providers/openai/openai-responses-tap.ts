import type { FinishReason } from '../../spec/finish-reason.js';
import type {
  PassthroughTap,
  PassthroughTapOptions,
  PassthroughTapResult,
} from '../../spec/passthrough-tap.js';
import { UpstreamError } from '../../spec/upstream-error.js';
import type { Usage } from '../../spec/usage.js';
import { concatBytes, NO_BYTES } from '../../util/bytes.js';
import { GeneratedTextCollector } from '../../util/generated-text-collector.js';
import { maskSensitive } from '../../util/mask-sensitive.js';
import { classifyUpstreamError } from '../classify-upstream-error.js';
import { convertResponsesUsage } from './convert-responses-usage.js';
import { DEFAULT_MAX_COLLECTED_CHARS } from './openai-usage-tap.js';

type Json = Record<string, unknown>;

/** Beyond this many characters in one unfinished line the tap stops parsing and only forwards. */
const MAX_LINE_CHARS = 16 * 1024 * 1024;
const TERMINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed']);
const encoder = new TextEncoder();

/**
 * The pass-through tap for OpenAI Responses streams (`event: response.*` + `data: {...}`):
 * upstream bytes go to the client unchanged (same chunk objects) while the tap reads, from each
 * `data:` payload, the response id and model (`response.created`), generated text for local
 * counting (`response.output_text.delta`, reasoning summary and text deltas,
 * `response.function_call_arguments.delta`, function call names from
 * `response.output_item.added`), usage and status from the terminal event (`response.completed`,
 * `response.incomplete`, `response.failed`; `sawDone` is true once one arrived) and in-stream
 * `error` events. Responses streams have no end marker: `endOfStream`, when set, only appends its
 * result after the upstream's last byte; `dropUsageOnlyChunk` has nothing to drop.
 */
export function createOpenAIResponsesTap(options: PassthroughTapOptions = {}): PassthroughTap {
  const onMalformedEvent = options.onMalformedEvent;
  const collectText = options.collectText !== false;
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

  const readResponse = (response: Json | undefined) => {
    if (response === undefined) return;
    if (responseId === undefined && typeof response.id === 'string') responseId = response.id;
    if (model === undefined && typeof response.model === 'string') model = response.model;
    const converted = convertResponsesUsage(response.usage);
    if (converted !== undefined) usage = converted;
  };

  const handleEvent = (event: Json) => {
    const type = event.type;
    const response = record(event.response);
    switch (type) {
      case 'response.created':
      case 'response.in_progress':
        readResponse(response);
        return;
      case 'response.output_text.delta':
      case 'response.reasoning_summary_text.delta':
      case 'response.reasoning_text.delta':
      case 'response.refusal.delta':
      case 'response.function_call_arguments.delta':
        if (collectText && typeof event.delta === 'string') generated.append(event.delta);
        return;
      case 'response.output_item.added': {
        const item = record(event.item);
        if (collectText && item?.type === 'function_call' && typeof item.name === 'string') {
          generated.toolCall(item.name);
        }
        return;
      }
      case 'error':
        streamError = streamErrorFrom(event);
        return;
    }
    if (typeof type === 'string' && TERMINAL_EVENTS.has(type)) {
      sawDone = true;
      readResponse(response);
      const status = typeof response?.status === 'string' ? response.status : type.slice('response.'.length);
      const reason = record(response?.incomplete_details)?.reason;
      rawFinishReason = typeof reason === 'string' ? reason : status;
      finishReason = mapResponsesStatus(status, typeof reason === 'string' ? reason : undefined);
      if (type === 'response.failed') {
        const error = record(response?.error);
        streamError = streamErrorFrom({
          code: error?.code,
          message: error?.message ?? 'the response failed',
        });
      }
    }
  };

  const handleLine = (line: string) => {
    const end = line.endsWith('\r') ? line.length - 1 : line.length;
    if (!line.startsWith('data:')) return;
    const payload = line.slice(line.charCodeAt(5) === 32 ? 6 : 5, end);
    if (payload === '') return;
    eventCount++;
    if (firstEventAt === undefined) firstEventAt = now();
    if (payload === '[DONE]') {
      sawDone = true;
      return;
    }
    let event: unknown;
    try {
      event = JSON.parse(payload);
    } catch {
      malformedEvents++;
      onMalformedEvent?.(payload);
      return;
    }
    const object = record(event);
    if (object === undefined) malformedEvents++;
    else handleEvent(object);
  };

  const parseText = (text: string) => {
    let start = 0;
    let newline = text.indexOf('\n');
    while (newline !== -1) {
      const line = start === 0 ? partial + text.slice(0, newline) : text.slice(start, newline);
      if (start === 0) partial = '';
      handleLine(line);
      start = newline + 1;
      newline = text.indexOf('\n', start);
    }
    partial = start === 0 ? partial + text : text.slice(start);
    if (partial.length > MAX_LINE_CHARS) {
      parsing = false;
      partial = '';
      malformedEvents++;
    }
  };

  const push = (chunk: Uint8Array): Uint8Array => {
    if (finished || chunk.length === 0 || !parsing) return chunk;
    parseText(decoder.decode(chunk, { stream: true }));
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
    const trailer = options.endOfStream?.(result());
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

/** The unified finish reason for a Responses terminal status. */
export function mapResponsesStatus(status: string, incompleteReason: string | undefined): FinishReason {
  if (status === 'completed') return 'stop';
  if (status === 'failed') return 'error';
  if (status === 'incomplete') {
    if (incompleteReason === 'max_output_tokens') return 'length';
    if (incompleteReason === 'content_filter') return 'content-filter';
  }
  return 'other';
}

function record(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

function streamErrorFrom(event: Json): UpstreamError {
  const message = typeof event.message === 'string' ? event.message : 'upstream stream error';
  const code = typeof event.code === 'string' ? event.code : undefined;
  const status = code === 'rate_limit_exceeded' ? 429 : 500;
  const classification = classifyUpstreamError({ status, bodyKind: 'json', message, code });
  return new UpstreamError({
    status: 200,
    code: 'upstream:stream_error',
    message: maskSensitive(message),
    upstreamCode: code,
    param: typeof event.param === 'string' ? event.param : undefined,
    retryable: false,
    channelFault: classification.channelFault,
    rawBody: JSON.stringify(event),
  });
}
