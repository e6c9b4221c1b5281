import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** Headers of every JSON response; reused, never mutated. */
const jsonContentType = 'application/json';

/** Sends a JSON body (an object to serialise, or text that already is JSON) with a length. */
export function sendJson(
  response: ServerResponse,
  status: number,
  body: unknown,
  extraHeaders?: OutgoingHttpHeaders,
): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  sendBody(response, status, jsonContentType, text, extraHeaders);
}

/** Sends a complete body of any content type with a content-length header. */
export function sendBody(
  response: ServerResponse,
  status: number,
  contentType: string,
  body: string | Buffer,
  extraHeaders?: OutgoingHttpHeaders,
): void {
  if (response.destroyed) return;
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  const headers: OutgoingHttpHeaders = { 'content-type': contentType, 'content-length': length };
  if (extraHeaders) Object.assign(headers, extraHeaders);
  response.writeHead(status, headers);
  response.end(body);
}

/**
 * Waits `milliseconds`, resolving early with `false` when the response closes (client gone or
 * mock closing), so no timer outlives its connection. Resolves `true` after a full wait.
 */
export function pause(response: ServerResponse, milliseconds: number): Promise<boolean> {
  if (response.destroyed) return Promise.resolve(false);
  if (milliseconds <= 0) return Promise.resolve(true);
  return new Promise((resolve) => {
    const onClose = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      response.off('close', onClose);
      resolve(!response.destroyed);
    }, milliseconds);
    response.once('close', onClose);
  });
}

/** Waits for a full socket buffer to drain; resolves `false` if the response closes first. */
export function waitForDrain(response: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const onDrain = (): void => {
      response.off('close', onClose);
      resolve(true);
    };
    const onClose = (): void => {
      response.off('drain', onDrain);
      resolve(false);
    };
    response.once('drain', onDrain);
    response.once('close', onClose);
  });
}
