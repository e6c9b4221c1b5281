import { vi } from 'vitest';

/** What a mocked endpoint answers. */
export interface MockReply {
  status?: number;
  body?: unknown;
}

/** A request as the mock saw it. */
export interface RecordedRequest {
  method: string;
  url: URL;
  headers: Headers;
  body: unknown;
}

export type MockHandler = MockReply | ((request: RecordedRequest) => MockReply | Promise<MockReply>);

/** `{success: true, message, data}` */
export const ok = (data?: unknown, message = ''): MockReply => ({ body: { success: true, message, data } });
/** `{success: false, message}` */
export const fail = (message: string): MockReply => ({ body: { success: false, message } });

/**
 * Replaces global fetch for one test. Routes are keyed "METHOD /path" (query ignored). An unmatched
 * request answers 404 and is recorded in `unmatched`, so a test can assert nothing unexpected ran.
 * vi.restoreAllMocks (in the setup file) puts the real fetch back.
 */
export function mockFetch(routes: Record<string, MockHandler>) {
  const requests: RecordedRequest[] = [];
  const unmatched: RecordedRequest[] = [];
  const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      'http://localhost',
    );
    const method = (init?.method ?? 'GET').toUpperCase();
    const rawBody = init?.body;
    let body: unknown;
    if (typeof rawBody === 'string') {
      try {
        body = JSON.parse(rawBody);
      } catch {
        body = rawBody;
      }
    }
    const request: RecordedRequest = { method, url, headers: new Headers(init?.headers), body };
    requests.push(request);
    const handler = routes[`${method} ${url.pathname}`];
    if (!handler) {
      unmatched.push(request);
      return new Response(JSON.stringify({ message: `no mock for ${method} ${url.pathname}` }), {
        status: 404,
      });
    }
    const reply = typeof handler === 'function' ? await handler(request) : handler;
    const text =
      reply.body === undefined
        ? ''
        : typeof reply.body === 'string'
          ? reply.body
          : JSON.stringify(reply.body);
    return new Response(text, {
      status: reply.status ?? 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });

  return {
    spy,
    requests,
    unmatched,
    /** Requests to one "METHOD /path". */
    calls: (key: string) => requests.filter((request) => `${request.method} ${request.url.pathname}` === key),
  };
}
