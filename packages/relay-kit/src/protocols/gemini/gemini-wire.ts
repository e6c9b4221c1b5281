import { toGeminiFinishReason } from '../../providers/gemini/map-gemini-finish-reason.js';
import type { ClientError } from '../../spec/protocol-codec.js';
import type { RelayCall } from '../../spec/relay-call.js';
import type { UnifiedChoice, UnifiedResponse } from '../../spec/unified-response.js';
import type { Usage } from '../../spec/usage.js';

const GOOGLE_STATUS: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  402: 'RESOURCE_EXHAUSTED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
};

/** Google's symbolic status for an HTTP status (other 4xx → INVALID_ARGUMENT, 5xx → INTERNAL). */
export function googleStatusFor(status: number): string {
  return GOOGLE_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT');
}

/** The Google error body: `{"error":{"code":<status>,"message","status":"INVALID_ARGUMENT"}}`. */
export function formatGeminiErrorBody(error: ClientError): string {
  return JSON.stringify({
    error: { code: error.status, message: error.message, status: googleStatusFor(error.status) },
  });
}

/**
 * Gemini `usageMetadata` for a {@link Usage}: `candidatesTokenCount` excludes reasoning, which is
 * reported as `thoughtsTokenCount`; cache and thought counts appear only when non-zero.
 */
export function toGeminiUsageMetadata(usage: Usage): Record<string, number> {
  const input = usage.inputTokens;
  const output = usage.outputTokens;
  const metadata: Record<string, number> = {
    promptTokenCount: input.total,
    candidatesTokenCount: output.total - output.reasoning,
    totalTokenCount: input.total + output.total,
  };
  if (input.cacheRead > 0) metadata.cachedContentTokenCount = input.cacheRead;
  if (output.reasoning > 0) metadata.thoughtsTokenCount = output.reasoning;
  return metadata;
}

/** The parts of a converted candidate: thoughts, text, then function calls (never empty). */
export function toGeminiParts(
  choice: Pick<UnifiedChoice, 'text' | 'reasoning' | 'toolCalls'>,
): Record<string, unknown>[] {
  const parts: Record<string, unknown>[] = [];
  if (choice.reasoning !== undefined && choice.reasoning !== '')
    parts.push({ text: choice.reasoning, thought: true });
  if (choice.text !== '') parts.push({ text: choice.text });
  for (const toolCall of choice.toolCalls) {
    parts.push({ functionCall: { name: toolCall.name, args: parseArgs(toolCall.arguments) } });
  }
  if (parts.length === 0) parts.push({ text: '' });
  return parts;
}

/** Tool call arguments as an object (`{}` for empty or invalid JSON). */
export function parseArgs(text: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}

/** A converted non-stream response as a `generateContent` body. */
export function formatGeminiResponse(response: UnifiedResponse, call: RelayCall): string {
  const body: Record<string, unknown> = {
    candidates: response.choices.map((choice) => ({
      content: { role: 'model', parts: toGeminiParts(choice) },
      finishReason: toGeminiFinishReason(choice.finishReason),
      index: choice.index,
    })),
  };
  if (response.usage !== undefined) body.usageMetadata = toGeminiUsageMetadata(response.usage);
  body.modelVersion = response.model || call.model;
  body.responseId = response.id || newResponseId();
  return JSON.stringify(body);
}

/** A response id in Google's style (22 url-safe characters). */
export function newResponseId(): string {
  return crypto.randomUUID().replaceAll('-', '').slice(0, 22);
}
