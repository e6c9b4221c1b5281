import type { FinishReason } from '../../spec/finish-reason.js';
import type { PassthroughTap, PassthroughTapOptions } from '../../spec/passthrough-tap.js';
import { UpstreamError } from '../../spec/upstream-error.js';
import { maskSensitive } from '../../util/mask-sensitive.js';
import { classifyUpstreamError } from '../classify-upstream-error.js';
import { createSseUsageTap } from '../sse-usage-tap.js';
import { MALFORMED, type TapFindings } from '../tap-findings.js';
import { convertResponsesUsage } from './convert-responses-usage.js';
import { ResponsesDeltaScan, TEXT_DELTA_EVENTS } from './responses-delta-scan.js';

type Json = Record<string, unknown>;

const TERMINAL_EVENTS = new Set(['response.completed', 'response.incomplete', 'response.failed']);
const TEXT_DELTA_TYPES: ReadonlySet<string> = new Set(TEXT_DELTA_EVENTS);

/**
 * The pass-through tap for OpenAI Responses streams (`event: response.*` + `data: {...}`):
 * upstream bytes go to the client unchanged (same chunk objects) while the tap reads, from each
 * `data:` payload, the response id and model (`response.created`), generated text for local
 * counting (`response.output_text.delta`, reasoning summary and text deltas,
 * `response.function_call_arguments.delta`, function call names from
 * `response.output_item.added`), usage and status from the terminal event (`response.completed`,
 * `response.incomplete`, `response.failed`; `sawDone` is true once one arrived) and in-stream
 * `error` events. Responses streams have no end marker: `endOfStream`, when set, only appends its
 * result after the upstream's last byte; `dropUsageOnlyChunk` has nothing to drop. Lines and
 * chunking: {@link createSseUsageTap}.
 */
export function createOpenAIResponsesTap(options: PassthroughTapOptions = {}): PassthroughTap {
  return createSseUsageTap(options, (findings) => ({
    skipEmptyData: true,
    read: responsesEventReader(findings),
  }));
}

/** Reads one Responses `data:` payload (the event type is inside it). */
function responsesEventReader(findings: TapFindings): (payload: string) => undefined {
  const collectText = findings.collectText;
  const generated = findings.generated;
  const deltaScan = new ResponsesDeltaScan();

  const readResponse = (response: Json | undefined) => {
    if (response === undefined) return;
    if (findings.responseId === undefined && typeof response.id === 'string')
      findings.responseId = response.id;
    if (findings.model === undefined && typeof response.model === 'string') findings.model = response.model;
    const converted = convertResponsesUsage(response.usage);
    if (converted !== undefined) findings.usage = converted;
  };

  const handleEvent = (event: Json) => {
    const type = event.type;
    if (typeof type === 'string' && TEXT_DELTA_TYPES.has(type)) {
      // Reached when the scan could not vouch for the event (e.g. its delta is not a string).
      if (collectText && typeof event.delta === 'string') generated.append(event.delta);
      return;
    }
    const response = record(event.response);
    switch (type) {
      case 'response.created':
      case 'response.in_progress':
        readResponse(response);
        return;
      case 'response.output_item.added': {
        const item = record(event.item);
        if (collectText && item?.type === 'function_call' && typeof item.name === 'string') {
          generated.toolCall(item.name);
        }
        return;
      }
      case 'error':
        findings.error = streamErrorFrom(event);
        return;
    }
    if (typeof type === 'string' && TERMINAL_EVENTS.has(type)) {
      findings.sawDone = true;
      readResponse(response);
      const status = typeof response?.status === 'string' ? response.status : type.slice('response.'.length);
      const reason = record(response?.incomplete_details)?.reason;
      findings.rawFinishReason = typeof reason === 'string' ? reason : status;
      findings.finishReason = mapResponsesStatus(status, typeof reason === 'string' ? reason : undefined);
      if (type === 'response.failed') {
        const error = record(response?.error);
        findings.error = streamErrorFrom({
          code: error?.code,
          message: error?.message ?? 'the response failed',
        });
      }
    }
  };

  return (payload) => {
    if (payload === '[DONE]') {
      findings.sawDone = true;
      return;
    }
    // Text deltas are most of a stream: read without a full parse.
    if (deltaScan.read(payload, generated, collectText)) return;
    const parsed = findings.parse(payload);
    if (parsed === MALFORMED) return;
    const object = record(parsed);
    if (object === undefined) findings.malformedEvents++;
    else handleEvent(object);
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
