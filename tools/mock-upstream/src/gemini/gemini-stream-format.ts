import type { EventStreamOptions } from '../event-stream-writer.ts';
import type { MockScenario } from '../mock-scenario.ts';
import { buildErrorBody, buildStreamErrorEvent } from '../protocol-errors.ts';

const sseHeaders = Object.freeze({ 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
const arrayHeaders = Object.freeze({ 'content-type': 'application/json; charset=UTF-8' });
const sseMalformedEvent = 'data: {"candidates":[{"content":{"parts":[{"text":\r\n\r\n';
const sseErrorEvent = buildStreamErrorEvent('gemini');
const arrayMalformedEvent = ',\r\n{"candidates":[{"content":';
const arrayErrorEvent = `,\r\n${JSON.stringify(
  buildErrorBody('gemini', { status: 500, message: 'Mock scenario: internal error mid-stream.' }),
)}\r\n]`;

/** The options for `writeEventStream` of a Gemini stream (SSE or JSON array) under `scenario`. */
export function geminiStreamOptions(scenario: MockScenario, sse: boolean): EventStreamOptions {
  return sse
    ? { headers: sseHeaders, scenario, malformedEvent: sseMalformedEvent, errorEvent: sseErrorEvent }
    : {
        headers: arrayHeaders,
        scenario,
        malformedEvent: arrayMalformedEvent,
        errorEvent: arrayErrorEvent,
        trailer: ']',
      };
}
