import type { HeadersLike } from '../../spec/provider-adapter.js';
import { UpstreamError } from '../../spec/upstream-error.js';
import { maskSensitive } from '../../util/mask-sensitive.js';
import { classifyUpstreamError, readRetryAfterMs } from '../classify-upstream-error.js';
import { extractOpenAIErrorFacts, type OpenAIErrorFacts } from '../openai/openai-error.js';

/**
 * Extracts message and type from an Anthropic error body
 * (`{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`); other shapes
 * (proxies, HTML pages) are read like OpenAI-compatible errors. `billing_error` is reported as
 * `insufficient_quota` and a `not_found_error` about a model as `model_not_found`, so the shared
 * classification blames the channel.
 */
export function extractAnthropicErrorFacts(status: number, bodyText: string): OpenAIErrorFacts {
  const facts = extractOpenAIErrorFacts(status, bodyText);
  if (facts.bodyKind !== 'json' || facts.type === undefined) return facts;
  let code = facts.code;
  if (facts.type === 'billing_error') code ??= 'insufficient_quota';
  else if (facts.type === 'not_found_error' && /^model\b/i.test(facts.message)) code ??= 'model_not_found';
  return { ...facts, code };
}

/**
 * Parses a non-2xx Anthropic response into an {@link UpstreamError}: 401/403 and invalid keys are
 * the channel's fault, 429, 529 (overloaded) and other 5xx are retryable; see
 * `classifyUpstreamError`.
 */
export function parseAnthropicError(status: number, bodyText: string, headers?: HeadersLike): UpstreamError {
  const facts = extractAnthropicErrorFacts(status, bodyText);
  const classification = classifyUpstreamError(facts);
  return new UpstreamError({
    status,
    code: classification.code,
    message: maskSensitive(facts.message),
    type: facts.type,
    upstreamCode: facts.code,
    retryable: classification.retryable,
    channelFault: classification.channelFault,
    rawBody: bodyText,
    retryAfterMs: readRetryAfterMs(headers),
  });
}

/** An `error` event inside an Anthropic stream (bytes already reached the client: not retryable). */
export function anthropicStreamError(data: string): UpstreamError {
  const facts = extractAnthropicErrorFacts(500, data);
  return new UpstreamError({
    status: 200,
    code: 'upstream:stream_error',
    message: maskSensitive(facts.message),
    type: facts.type,
    upstreamCode: facts.code,
    retryable: false,
    channelFault: classifyUpstreamError(facts).channelFault,
    rawBody: data,
  });
}
