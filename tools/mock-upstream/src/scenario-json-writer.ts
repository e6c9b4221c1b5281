import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { MockScenario } from './mock-scenario.ts';
import { pause, sendJson } from './response-writer.ts';

/**
 * Sends a successful JSON result, applying the scenarios that make sense without a stream:
 * `slow-first-byte-<ms>` delays it, `bad-json-event` truncates the body into invalid JSON, and
 * `disconnect-after-<n>` sends the headers and half the body, then closes the socket.
 */
export async function sendResultJson(
  response: ServerResponse,
  scenario: MockScenario,
  body: unknown,
  extraHeaders?: OutgoingHttpHeaders,
): Promise<void> {
  if (scenario.slowFirstByteMs > 0 && !(await pause(response, scenario.slowFirstByteMs))) return;
  const text = JSON.stringify(body);
  if (scenario.badJsonEvent) {
    sendJson(response, 200, text.slice(0, Math.ceil(text.length / 2)), extraHeaders);
    return;
  }
  if (scenario.disconnectAfter !== undefined) {
    if (response.destroyed) return;
    response.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
    });
    response.write(text.slice(0, Math.ceil(text.length / 2)));
    const socket = response.socket;
    socket?.once('finish', () => socket.destroy());
    socket?.end();
    return;
  }
  sendJson(response, 200, text, extraHeaders);
}
