import type { EventStreamOptions } from '../event-stream-writer.ts';
import type { MockScenario } from '../mock-scenario.ts';
import { buildStreamErrorEvent } from '../protocol-errors.ts';

/** Response headers of OpenAI event streams (shared, never mutated). */
export const openAiStreamHeaders = Object.freeze({
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
});

/** The terminating event of every OpenAI stream. */
export const openAiDoneEvent = 'data: [DONE]\n\n';

const malformedEvent =
  'data: {"id":"chatcmpl-broken","object":"chat.completion.chunk","choices":[{"delta":\n\n';
const errorEvent = buildStreamErrorEvent('openai');

/** The options for `writeEventStream` of an OpenAI stream under `scenario`. */
export function openAiStreamOptions(scenario: MockScenario): EventStreamOptions {
  return { headers: openAiStreamHeaders, scenario, malformedEvent, errorEvent };
}
