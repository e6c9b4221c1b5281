import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { FastifyInstance } from 'fastify';
import type * as LightMyRequest from 'light-my-request';

type Listener = (request: IncomingMessage, response: ServerResponse) => void;

/** light-my-request, as Fastify's own `inject` loads it (on first use: tests only). */
let lightMyRequest: typeof LightMyRequest.inject | undefined;
function loadLightMyRequest(): typeof LightMyRequest.inject {
  if (lightMyRequest === undefined) {
    const fromHere = createRequire(import.meta.url);
    lightMyRequest = createRequire(fromHere.resolve('fastify'))('light-my-request');
  }
  return lightMyRequest!;
}

/**
 * Points `app.inject` at the server's own request listener (the front door), so an injected
 * request takes the path a real one takes: relay routes through the relay lane, the rest through
 * Fastify. Fastify's `inject` would call its router directly, past the lane. As Fastify's does,
 * it waits for the app to be ready.
 */
export function injectThrough(app: FastifyInstance, listener: Listener): void {
  const inject = (options: unknown, callback?: unknown) =>
    loadLightMyRequest()(
      (request, response) => {
        app.ready().then(
          () => listener(request, headersVisible(response)),
          (error: unknown) => response.emit('error', error),
        );
      },
      options as LightMyRequest.InjectOptions,
      callback as LightMyRequest.CallbackFunc,
    );
  app.inject = inject as FastifyInstance['inject'];
}

/**
 * light-my-request reads the answer's headers from `getHeaders()`, which holds none of those
 * passed to `writeHead` as a list (the relay reply's way): they are set one by one here.
 */
function headersVisible(response: ServerResponse): ServerResponse {
  const writeHead = response.writeHead.bind(response) as (...args: unknown[]) => ServerResponse;
  response.writeHead = ((status: number, ...rest: unknown[]) => {
    const headers = rest.at(-1);
    if (!Array.isArray(headers)) return writeHead(status, ...rest);
    for (let index = 0; index < headers.length; index += 2)
      response.setHeader(headers[index], headers[index + 1]);
    return writeHead(status, ...rest.slice(0, -1));
  }) as ServerResponse['writeHead'];
  return response;
}
