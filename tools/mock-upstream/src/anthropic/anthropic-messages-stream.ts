import { type EventStreamOptions, type StreamEvent, StreamEventKind } from '../event-stream-writer.ts';
import type { MockScenario } from '../mock-scenario.ts';
import { buildStreamErrorEvent } from '../protocol-errors.ts';
import type { ReplyPlan } from '../reply-plan.ts';
import {
  anthropicOutputTokens,
  buildAnthropicUsage,
  mapAnthropicStopReason,
  mockThinkingSignature,
} from './anthropic-usage.ts';

const streamHeaders = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
});
const malformedEvent =
  'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":\n\n';
const errorEvent = buildStreamErrorEvent('anthropic');
const pingEvent = 'event: ping\ndata: {"type": "ping"}\n\n';
const messageStopEvent = 'event: message_stop\ndata: {"type":"message_stop"}\n\n';

/** The options for `writeEventStream` of an Anthropic stream under `scenario`. */
export function anthropicStreamOptions(scenario: MockScenario): EventStreamOptions {
  return { headers: streamHeaders, scenario, malformedEvent, errorEvent };
}

/** Inputs of {@link streamAnthropicMessage}. */
export interface AnthropicStreamInput {
  readonly id: string;
  readonly model: string;
  readonly plan: ReplyPlan;
  readonly toolUseId: string;
  readonly includeUsage: boolean;
}

function event(name: string, data: string, kind: StreamEventKind = StreamEventKind.Framing): StreamEvent {
  return { text: `event: ${name}\ndata: ${data}\n\n`, kind };
}

/**
 * The events of a streamed message, in Anthropic's order: `message_start` (usage with input
 * and cache tokens), per block `content_block_start` / deltas / `content_block_stop` (a `ping`
 * after the first block start; thinking blocks end with a `signature_delta`), `message_delta`
 * (stop reason, `usage.output_tokens`), `message_stop`.
 */
export function* streamAnthropicMessage(input: AnthropicStreamInput): Generator<StreamEvent> {
  const { plan } = input;
  const message: Record<string, unknown> = {
    id: input.id,
    type: 'message',
    role: 'assistant',
    model: input.model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
  };
  if (input.includeUsage) message.usage = buildAnthropicUsage(plan.usage, 1);
  yield event('message_start', JSON.stringify({ type: 'message_start', message }));
  let blockIndex = 0;
  const blockStart = (block: string): StreamEvent =>
    event(
      'content_block_start',
      `{"type":"content_block_start","index":${blockIndex},"content_block":${block}}`,
    );
  const delta = (body: string, kind: StreamEventKind = StreamEventKind.Content): StreamEvent =>
    event(
      'content_block_delta',
      `{"type":"content_block_delta","index":${blockIndex},"delta":${body}}`,
      kind,
    );
  const blockStop = (): StreamEvent =>
    event('content_block_stop', `{"type":"content_block_stop","index":${blockIndex}}`);

  if (plan.reasoning !== '') {
    yield blockStart('{"type":"thinking","thinking":"","signature":""}');
    yield { text: pingEvent, kind: StreamEventKind.Framing };
    for (const piece of plan.reasoningPieces) {
      yield delta(`{"type":"thinking_delta","thinking":${JSON.stringify(piece)}}`);
    }
    yield delta(`{"type":"signature_delta","signature":"${mockThinkingSignature}"}`, StreamEventKind.Framing);
    yield blockStop();
    blockIndex++;
  }
  const toolCall = plan.toolCall;
  if (toolCall) {
    yield blockStart(
      `{"type":"tool_use","id":"${input.toolUseId}","name":${JSON.stringify(toolCall.name)},"input":{}}`,
    );
    if (blockIndex === 0) yield { text: pingEvent, kind: StreamEventKind.Framing };
    for (const fragment of toolCall.argumentFragments) {
      yield delta(`{"type":"input_json_delta","partial_json":${JSON.stringify(fragment)}}`);
    }
  } else {
    yield blockStart('{"type":"text","text":""}');
    if (blockIndex === 0) yield { text: pingEvent, kind: StreamEventKind.Framing };
    for (const piece of plan.textPieces) {
      yield delta(`{"type":"text_delta","text":${JSON.stringify(piece)}}`);
    }
  }
  yield blockStop();
  const stopReason = mapAnthropicStopReason(plan.finish);
  const usage = input.includeUsage ? `,"usage":{"output_tokens":${anthropicOutputTokens(plan.usage)}}` : '';
  yield event(
    'message_delta',
    `{"type":"message_delta","delta":{"stop_reason":"${stopReason}","stop_sequence":null}${usage}}`,
    StreamEventKind.Closing,
  );
  yield { text: messageStopEvent, kind: StreamEventKind.Framing };
}
