import type { PassthroughTap, PassthroughTapOptions } from '../../spec/passthrough-tap.js';
import { UpstreamError } from '../../spec/upstream-error.js';
import { isEmptyUsage } from '../../spec/usage.js';
import type { GeneratedTextCollector } from '../../util/generated-text-collector.js';
import { endsLikeObject } from '../../util/json-string-fields.js';
import { maskSensitive } from '../../util/mask-sensitive.js';
import { classifyUpstreamError } from '../classify-upstream-error.js';
import { createSseUsageTap } from '../sse-usage-tap.js';
import type { TapFindings } from '../tap-findings.js';
import { convertOpenAIUsage } from './convert-openai-usage.js';
import { mapOpenAIFinishReason } from './map-openai-finish-reason.js';
import type { OpenAIChatChunk, OpenAIChunkChoice, OpenAIMessageLike } from './openai-api.js';
import { type OpenAIChunkVisitor, scanOpenAIChunk } from './openai-chunk-scanner.js';
import { extractOpenAIErrorFacts } from './openai-error.js';

/**
 * Creates the pass-through tap for OpenAI-format streams (chat completions and legacy
 * completions): upstream bytes go to the client unchanged while the tap reads usage, finish
 * reason, first-event time and (for local counting) the generated text. Lines, chunking and
 * forwarding are the SSE skeleton's ({@link createSseUsageTap}); each `data:` line is one payload,
 * like new-api's scanner.
 *
 * Hot-path rules: an event is `JSON.parse`d only when it carries a non-null `"usage"` or an
 * `"error"` (normally once per stream); text, finish reason and ids are read by a single-pass
 * scanner (`scanOpenAIChunk`, about a third of the cost of `JSON.parse`). Without
 * `dropUsageOnlyChunk` and `endOfStream` every input chunk is returned as is (same object, zero
 * copy). With them, the tap forwards whole lines only and holds back an unfinished line until its
 * end arrives, so a line can be removed even when it was split across chunks.
 */
export function createOpenAIUsageTap(options: PassthroughTapOptions = {}): PassthroughTap {
  const dropUsageOnlyChunk = options.dropUsageOnlyChunk === true;
  const withholdDone = options.endOfStream !== undefined;
  return createSseUsageTap(options, (findings) => ({
    // Line-exact forwarding is only needed when the tap may remove a line.
    mayDropEvents: dropUsageOnlyChunk || withholdDone,
    read: openAIEventReader(findings, dropUsageOnlyChunk, withholdDone),
  }));
}

/** Reads one OpenAI `data:` payload; answers false when its line must not be forwarded. */
function openAIEventReader(
  findings: TapFindings,
  dropUsageOnlyChunk: boolean,
  withholdDone: boolean,
): (payload: string) => boolean {
  const generated = findings.generated;
  const collectText = findings.collectText;
  let identityScanned = false;

  const recordFinishReason = (raw: string | null | undefined) => {
    if (typeof raw !== 'string' || raw === '') return;
    findings.rawFinishReason = raw;
    findings.finishReason = mapOpenAIFinishReason(raw);
  };

  /** Handles a parsed chunk (usage or error events). Returns true when it is usage-only. */
  const handleParsedChunk = (chunk: OpenAIChatChunk) => {
    if (findings.responseId === undefined && typeof chunk.id === 'string') findings.responseId = chunk.id;
    if (findings.model === undefined && typeof chunk.model === 'string') findings.model = chunk.model;
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
    if (found !== undefined && (findings.usage === undefined || !isEmptyUsage(found))) findings.usage = found;
    return found !== undefined && choices.length === 0;
  };

  const identity = (id: string | undefined, reportedModel: string | undefined) => {
    findings.responseId = id;
    findings.model = reportedModel;
  };
  const scanVisitor: OpenAIChunkVisitor = collectText
    ? {
        text: (text) => generated.append(text),
        toolCall: (name) => generated.toolCall(name),
        finishReason: recordFinishReason,
        identity,
      }
    : { text() {}, toolCall() {}, finishReason: recordFinishReason, identity };

  return (payload) => {
    if (payload === '[DONE]') {
      findings.sawDone = true;
      return !withholdDone;
    }
    // One pass over the chunk without JSON.parse; only usage and error chunks are parsed.
    const wantIdentity = !identityScanned;
    identityScanned = true;
    // The scan does not validate JSON; a chunk that cannot end an object is checked for real.
    if (!endsLikeObject(payload) && parseJson(payload) === undefined) {
      findings.malformed(payload);
      return true;
    }
    generated.checkpoint();
    if (!scanOpenAIChunk(payload, scanVisitor, wantIdentity)) return true;
    const chunk = parseJson(payload);
    if (chunk === undefined) {
      // Keep what the scan read: it is all we will get from this event.
      findings.malformed(payload);
      return true;
    }
    // The full parse below reports this event's text again.
    generated.rollback();
    if (chunk.error !== undefined && chunk.error !== null && !Array.isArray(chunk.choices)) {
      findings.error = streamErrorFrom(payload);
      return true;
    }
    if (handleParsedChunk(chunk) && dropUsageOnlyChunk) {
      findings.droppedUsageChunk = true;
      return false;
    }
    return true;
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
