import type { PassthroughTap, PassthroughTapOptions } from '../../spec/passthrough-tap.js';
import { createSseUsageTap } from '../sse-usage-tap.js';
import { MALFORMED, type TapFindings } from '../tap-findings.js';
import { convertGeminiUsage } from './convert-gemini-usage.js';
import type { GeminiResponse } from './gemini-api.js';
import { isRecord } from './gemini-api.js';
import { geminiStreamError } from './gemini-stream-transformer.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';

/**
 * The pass-through tap for Gemini SSE streams (`streamGenerateContent?alt=sse`, CRLF or LF line
 * ends): every upstream chunk is returned as is while the tap parses each `data:` line and reads
 * `usageMetadata` (the last one wins: Google repeats a running count on every chunk and the full
 * count on the last), the finish reason, response id and model version, and the generated text
 * (answer, thoughts, function call names and arguments) for local counting. Gemini has no end
 * marker: `sawDone` means a finish reason arrived. `dropUsageOnlyChunk` does not apply (the
 * gateway never forces usage on Gemini); `endOfStream`'s result is appended when the upstream ends.
 * Lines and chunking: {@link createSseUsageTap}.
 */
export function createGeminiUsageTap(options: PassthroughTapOptions = {}): PassthroughTap {
  return createSseUsageTap(options, (findings) => ({
    skipEmptyData: true,
    read: geminiEventReader(findings),
  }));
}

/** Reads one Gemini `data:` payload (a `GenerateContentResponse`). */
function geminiEventReader(findings: TapFindings): (payload: string) => undefined {
  // A function call anywhere in the stream turns a STOP into "tool-calls".
  let sawFunctionCall = false;
  const { collectText, generated } = findings;

  const handleChunk = (chunk: GeminiResponse, payload: string) => {
    if (chunk.error !== undefined && chunk.candidates === undefined) {
      findings.error = geminiStreamError(payload);
      return;
    }
    if (findings.responseId === undefined && typeof chunk.responseId === 'string')
      findings.responseId = chunk.responseId;
    if (findings.model === undefined && typeof chunk.modelVersion === 'string')
      findings.model = chunk.modelVersion;
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
        findings.finishReason = reason;
        findings.rawFinishReason = candidate.finishReason ?? undefined;
        findings.sawDone = true;
      }
    }
    const blockReason = chunk.promptFeedback?.blockReason;
    if (candidates.length === 0 && typeof blockReason === 'string' && blockReason !== '') {
      findings.finishReason = 'content-filter';
      findings.rawFinishReason = blockReason;
      findings.sawDone = true;
    }
    const found = convertGeminiUsage(chunk.usageMetadata);
    if (found !== undefined) findings.usage = found;
  };

  return (payload) => {
    const parsed = findings.parse(payload);
    if (parsed === MALFORMED) return;
    if (isRecord(parsed)) handleChunk(parsed as GeminiResponse, payload);
    else findings.malformedEvents++;
  };
}
