import type { SseEvent } from '../../spec/sse-event.js';
import { createUsage, toCount, type Usage } from '../../spec/usage.js';
import { convertOpenAIUsage } from './convert-openai-usage.js';

type Json = Record<string, unknown>;

/** Audio tokens billed per second when a transcription upstream reports only a duration. */
export const TRANSCRIPTION_TOKENS_PER_SECOND = 10;

function record(value: unknown): Json | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Converts a usage object of the Responses shape (`input_tokens`, `output_tokens`,
 * `input_tokens_details.cached_tokens`, `output_tokens_details.reasoning_tokens`), also used by
 * gpt-image and gpt-4o-transcribe (`input_token_details.audio_tokens`), into a {@link Usage}.
 * Falls back to the chat shape (`prompt_tokens`...) when the object uses it.
 */
export function convertResponsesUsage(raw: unknown): Usage | undefined {
  const usage = record(raw);
  if (usage === undefined) return undefined;
  if (usage.input_tokens === undefined && usage.output_tokens === undefined) return convertOpenAIUsage(raw);
  const input = record(usage.input_tokens_details) ?? record(usage.input_token_details);
  const output = record(usage.output_tokens_details) ?? record(usage.output_token_details);
  return createUsage({
    inputTotal: toCount(usage.input_tokens),
    cacheRead: toCount(input?.cached_tokens),
    inputAudio: toCount(input?.audio_tokens),
    outputTotal: toCount(usage.output_tokens),
    reasoning: toCount(output?.reasoning_tokens),
    outputAudio: toCount(output?.audio_tokens),
    raw,
  });
}

/**
 * Usage of a Responses body (`{object:"response", usage}`), of a stream event
 * (`response.completed` / `response.incomplete` / `response.failed` carry `response.usage`), or
 * of either's JSON text.
 */
export function readResponsesUsage(source: SseEvent | unknown): Usage | undefined {
  const value = typeof source === 'string' ? parse(source) : source;
  const object = record(value);
  if (object === undefined) return undefined;
  if (typeof object.data === 'string' && !('object' in object)) {
    if (!object.data.includes('"usage"')) return undefined;
    return readResponsesUsage(parse(object.data));
  }
  const response = record(object.response) ?? object;
  return convertResponsesUsage(response.usage);
}

/**
 * Usage of a transcription or translation answer: the `usage` object when present (`type:
 * "tokens"` with input/output tokens, or `type: "duration"` with `seconds`), else the
 * `duration` of a `verbose_json` answer. Durations become audio input tokens at
 * {@link TRANSCRIPTION_TOKENS_PER_SECOND} per started second. `text`, `srt` and `vtt` answers carry
 * neither: `undefined`, and the server falls back to its estimate.
 */
export function readTranscriptionUsage(source: unknown): Usage | undefined {
  const value = typeof source === 'string' ? parse(source) : source;
  const body = record(value);
  if (body === undefined) return undefined;
  const usage = record(body.usage);
  if (usage !== undefined && usage.type !== 'duration') {
    const converted = convertResponsesUsage(usage);
    if (converted !== undefined) return converted;
  }
  const seconds = usage?.type === 'duration' ? usage.seconds : body.duration;
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds <= 0) return undefined;
  const tokens = Math.ceil(seconds) * TRANSCRIPTION_TOKENS_PER_SECOND;
  return createUsage({ inputTotal: tokens, inputAudio: tokens, raw: usage ?? { duration: seconds } });
}

/**
 * Usage of a rerank answer: Jina / SiliconFlow-style `usage.total_tokens` (or `prompt_tokens`),
 * else Cohere-style `meta.tokens.input_tokens` or `meta.billed_units.input_tokens`. Every token
 * is an input token. `undefined` when the answer reports none (Xinference): the estimate applies.
 */
export function readRerankUsage(source: unknown): Usage | undefined {
  const value = typeof source === 'string' ? parse(source) : source;
  const body = record(value);
  if (body === undefined) return undefined;
  const usage = record(body.usage);
  const meta = record(body.meta);
  const tokens =
    toCount(usage?.total_tokens) ||
    toCount(usage?.prompt_tokens) ||
    toCount(record(meta?.tokens)?.input_tokens) ||
    toCount(record(meta?.billed_units)?.input_tokens);
  return tokens > 0 ? createUsage({ inputTotal: tokens, raw: usage ?? meta }) : undefined;
}

/** Usage of an image answer (gpt-image models report tokens; DALL·E reports none). */
export function readImagesUsage(source: unknown): Usage | undefined {
  const value = typeof source === 'string' ? parse(source) : source;
  return convertResponsesUsage(record(value)?.usage);
}
