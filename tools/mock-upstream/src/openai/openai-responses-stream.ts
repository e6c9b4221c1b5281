import { type EventStreamOptions, type StreamEvent, StreamEventKind } from '../event-stream-writer.ts';
import type { MockScenario } from '../mock-scenario.ts';
import type { ReplyPlan } from '../reply-plan.ts';
import { buildResponseOutput, type ResponseItemIds } from './openai-responses-objects.ts';
import { openAiStreamHeaders } from './openai-stream-format.ts';

const malformedEvent =
  'event: response.output_text.delta\ndata: {"type":"response.output_text.delta","item_id":"msg_broken","delta":\n\n';
const errorEvent = `event: error\ndata: ${JSON.stringify({
  type: 'error',
  code: 'server_error',
  message: 'Mock scenario: the server had an error while processing your request.',
  param: null,
})}\n\n`;

/** The options for `writeEventStream` of a Responses stream under `scenario`. */
export function responsesStreamOptions(scenario: MockScenario): EventStreamOptions {
  return { headers: openAiStreamHeaders, scenario, malformedEvent, errorEvent };
}

/** Inputs of {@link streamOpenAiResponse}. */
export interface ResponsesStreamInput {
  readonly plan: ReplyPlan;
  readonly ids: ResponseItemIds;
  /** Builds the response object in a given state (for created / in_progress / completed). */
  readonly build: (state: {
    status: string;
    output: unknown[];
    usage: Record<string, unknown> | null | undefined;
  }) => Record<string, unknown>;
  /** `completed`, or `incomplete` when the reply was cut by `max_output_tokens`. */
  readonly status: string;
  /** The final usage; `undefined` (no usage at all) for `no-usage`. */
  readonly usage: Record<string, unknown> | undefined;
}

/**
 * The events of a streamed response, in OpenAI's order: `response.created`,
 * `response.in_progress`, then per output item `response.output_item.added`, its parts and
 * deltas (`response.reasoning_summary_text.delta`, `response.output_text.delta` or
 * `response.function_call_arguments.delta`, one per content chunk), their `.done` events and
 * `response.output_item.done`, and finally `response.completed` (or `response.incomplete`) with
 * the whole response and its usage. Every event carries a `sequence_number`.
 */
export function* streamOpenAiResponse(input: ResponsesStreamInput): Generator<StreamEvent> {
  const { plan, ids } = input;
  let sequence = 0;
  const event = (fields: Record<string, unknown>, kind: StreamEventKind = StreamEventKind.Framing) => {
    const data = JSON.stringify({ ...fields, sequence_number: sequence++ });
    return { text: `event: ${fields.type as string}\ndata: ${data}\n\n`, kind };
  };
  const content = (fields: Record<string, unknown>) => event(fields, StreamEventKind.Content);
  yield event({
    type: 'response.created',
    response: input.build({ status: 'in_progress', output: [], usage: null }),
  });
  yield event({
    type: 'response.in_progress',
    response: input.build({ status: 'in_progress', output: [], usage: null }),
  });
  const output = buildResponseOutput(plan, ids);
  let outputIndex = 0;
  if (plan.reasoning !== '') {
    const item = { id: ids.reasoning, output_index: outputIndex, summary_index: 0 };
    const part = { type: 'summary_text', text: '' };
    yield event({
      type: 'response.output_item.added',
      output_index: outputIndex,
      item: { id: ids.reasoning, type: 'reasoning', summary: [] },
    });
    yield event({ type: 'response.reasoning_summary_part.added', item_id: ids.reasoning, ...item, part });
    for (const delta of plan.reasoningPieces) {
      yield content({
        type: 'response.reasoning_summary_text.delta',
        item_id: ids.reasoning,
        ...item,
        delta,
      });
    }
    yield event({
      type: 'response.reasoning_summary_text.done',
      item_id: ids.reasoning,
      ...item,
      text: plan.reasoning,
    });
    yield event({
      type: 'response.reasoning_summary_part.done',
      item_id: ids.reasoning,
      ...item,
      part: { ...part, text: plan.reasoning },
    });
    yield event({ type: 'response.output_item.done', output_index: outputIndex, item: output[outputIndex] });
    outputIndex++;
  }
  const toolCall = plan.toolCall;
  if (toolCall) {
    const added = { ...output[outputIndex], status: 'in_progress', arguments: '' };
    yield event({ type: 'response.output_item.added', output_index: outputIndex, item: added });
    const where = { item_id: ids.functionCall, output_index: outputIndex };
    for (const delta of toolCall.argumentFragments) {
      yield content({ type: 'response.function_call_arguments.delta', ...where, delta });
    }
    yield event(
      { type: 'response.function_call_arguments.done', ...where, arguments: toolCall.argumentsJson },
      StreamEventKind.Closing,
    );
  } else {
    const added = { id: ids.message, type: 'message', status: 'in_progress', role: 'assistant', content: [] };
    yield event({ type: 'response.output_item.added', output_index: outputIndex, item: added });
    const where = { item_id: ids.message, output_index: outputIndex, content_index: 0 };
    const part = { type: 'output_text', text: '', annotations: [], logprobs: [] };
    yield event({ type: 'response.content_part.added', ...where, part });
    for (const delta of plan.textPieces) {
      yield content({ type: 'response.output_text.delta', ...where, delta, logprobs: [] });
    }
    yield event(
      { type: 'response.output_text.done', ...where, text: plan.text, logprobs: [] },
      StreamEventKind.Closing,
    );
    yield event({ type: 'response.content_part.done', ...where, part: { ...part, text: plan.text } });
  }
  yield event({ type: 'response.output_item.done', output_index: outputIndex, item: output[outputIndex] });
  const type = input.status === 'incomplete' ? 'response.incomplete' : 'response.completed';
  yield event({ type, response: input.build({ status: input.status, output, usage: input.usage }) });
}
