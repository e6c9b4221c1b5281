import type { FinishReason } from '../../spec/finish-reason.js';
import type { ClientError } from '../../spec/protocol-codec.js';
import type { Usage } from '../../spec/usage.js';

/** Error types of the Anthropic API (`{"type":"error","error":{"type":...}}`). */
export const ANTHROPIC_ERROR_TYPES: ReadonlySet<string> = new Set([
  'invalid_request_error',
  'authentication_error',
  'billing_error',
  'permission_error',
  'not_found_error',
  'request_too_large',
  'rate_limit_error',
  'timeout_error',
  'api_error',
  'overloaded_error',
]);

const STOP_REASONS = new Set([
  'end_turn',
  'max_tokens',
  'stop_sequence',
  'tool_use',
  'pause_turn',
  'refusal',
]);

/** The Anthropic error type for an HTTP status. */
export function anthropicErrorTypeForStatus(status: number): string {
  switch (status) {
    case 400:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 402:
      return 'billing_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 504:
      return 'timeout_error';
    case 529:
      return 'overloaded_error';
    default:
      return status >= 500 ? 'api_error' : 'invalid_request_error';
  }
}

/**
 * The Anthropic error body `{"type":"error","error":{"type","message"}}`; the type comes from the
 * status unless `error.type` is already an Anthropic error type.
 */
export function formatAnthropicErrorBody(error: ClientError): string {
  const type =
    error.type !== undefined && ANTHROPIC_ERROR_TYPES.has(error.type)
      ? error.type
      : anthropicErrorTypeForStatus(error.status);
  return JSON.stringify({ type: 'error', error: { type, message: error.message } });
}

/** The stream error event (`event: error`); the stream ends after it. */
export function formatAnthropicStreamError(error: ClientError): string {
  return `event: error\ndata: ${formatAnthropicErrorBody(error)}\n\n`;
}

/**
 * The Anthropic `stop_reason` for a unified finish reason. An Anthropic reason kept as
 * `rawReason` (same-family upstream) is returned as is.
 */
export function toAnthropicStopReason(reason: FinishReason, rawReason?: string | undefined): string {
  if (rawReason !== undefined && STOP_REASONS.has(rawReason)) return rawReason;
  switch (reason) {
    case 'length':
      return 'max_tokens';
    case 'tool-calls':
      return 'tool_use';
    case 'content-filter':
      return 'refusal';
    default:
      return 'end_turn';
  }
}

/** The Anthropic `usage` object: `input_tokens` excludes cached tokens, as Anthropic reports it. */
export function toAnthropicUsage(usage: Usage | undefined): Record<string, number> {
  if (usage === undefined) {
    return { input_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 0 };
  }
  return {
    input_tokens: usage.inputTokens.uncached,
    cache_creation_input_tokens: usage.inputTokens.cacheWrite,
    cache_read_input_tokens: usage.inputTokens.cacheRead,
    output_tokens: usage.outputTokens.total,
  };
}

/** A message id in Anthropic's style for responses the gateway writes itself. */
export function newAnthropicMessageId(): string {
  return `msg_${crypto.randomUUID().replaceAll('-', '')}`;
}

/** A tool use id in Anthropic's style, for tool calls that arrive without one. */
export function newAnthropicToolUseId(): string {
  return `toolu_${crypto.randomUUID().replaceAll('-', '').slice(0, 24)}`;
}

/** Parses tool arguments text into a `tool_use.input` object; invalid or non-object JSON → `{}`. */
export function parseToolInput(argumentsText: string): Record<string, unknown> {
  if (argumentsText.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(argumentsText);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
