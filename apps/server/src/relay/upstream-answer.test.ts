import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RelayAbort } from './relay-abort.ts';
import { BUFFER_PASSED_THROUGH } from './stages/answer-shape.ts';
import { MAX_ERROR_BODY_BYTES, type UpstreamAnswer, UpstreamBodyCut } from './upstream-answer.ts';
import { UpstreamClient, type UpstreamTimeouts } from './upstream-client.ts';

type Route = (request: IncomingMessage, response: ServerResponse) => void;

/** A local upstream whose answer is chosen by path; `closed` records requests whose socket closed early. */
const routes: Record<string, Route> = {
  '/json': (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end('{"ok":true,"usage":{"prompt_tokens":1}}');
  },
  '/events': (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('data: 1\n\n');
    setTimeout(() => response.end('data: [DONE]\n\n'), 20);
  },
  '/large-binary': (_request, response) => {
    response.writeHead(200, { 'content-type': 'audio/mpeg' });
    response.end(Buffer.alloc(2 * 1024 * 1024, 7));
  },
  '/error': (_request, response) => {
    response.writeHead(500, { 'content-type': 'application/json' });
    response.end(`{"error":"${'x'.repeat(200_000)}"}`);
  },
  '/cut': (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
    response.write('{"partial":');
    setTimeout(() => response.socket?.destroy(), 10);
  },
  '/slow': (request, response) => {
    request.socket.once('close', () => closed.push('/slow'));
    setTimeout(() => {
      if (!response.destroyed) response.end('{}');
    }, 2_000);
  },
  '/silent': (request) => {
    request.socket.once('close', () => closed.push('/silent'));
  },
  '/stalled': (request, response) => {
    request.socket.once('close', () => closed.push('/stalled'));
    response.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    response.write('{"partial":');
  },
  '/trickle': (_request, response) => {
    response.writeHead(200, { 'content-type': 'application/json' });
    let sent = 0;
    const timer = setInterval(() => {
      sent++;
      if (sent < 6) response.write(' ');
      else {
        clearInterval(timer);
        response.end('{}');
      }
    }, 300);
  },
  '/headers': (_request, response) => {
    // A raw header list: names in mixed case, a repeated header, one unknown to undici's table
    // with a Latin-1 value, one named like an object's prototype.
    response.writeHead(200, [
      '__proto__',
      'x',
      'Content-Type',
      'application/json',
      'Set-Cookie',
      'a=1',
      'X-Custom-Thing',
      'caf\u00e9',
      'set-cookie',
      'b=2',
      'Retry-After',
      '7',
    ]);
    response.end('{}');
  },
  '/slow-events': (request, response) => {
    request.socket.once('close', () => closed.push('/slow-events'));
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    response.write('data: first\n\n');
  },
};
const closed: string[] = [];

let server: Server;
let origin: string;
const client = new UpstreamClient({
  relayTimeoutSeconds: 30,
  streamingTimeoutSeconds: 30,
  upstreamConnectTimeoutSeconds: 5,
});

beforeAll(async () => {
  server = createServer((request, response) => routes[request.url ?? '']?.(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await client.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const fetchAnswer = (
  path: string,
  signal = new RelayAbort(),
  base = origin,
  timeouts?: UpstreamTimeouts,
): Promise<UpstreamAnswer> =>
  client.fetchAnswer(
    {
      url: `${base}${path}`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
      upstreamModel: 'm',
      streamUsageForced: false,
      warnings: [],
    },
    signal,
    timeouts,
    BUFFER_PASSED_THROUGH,
  );

/** A channel's own first-byte and idle timeouts, in milliseconds. */
const timeoutsOf = (ms: number): UpstreamTimeouts => ({
  connectTimeoutMs: null,
  firstByteTimeoutMs: ms,
  idleTimeoutMs: ms,
});

async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe('UpstreamClient.fetchAnswer', () => {
  it("gives an answer's headers lower-cased, a repeated one as an array of its values", async () => {
    const answer = await fetchAnswer('/headers');
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2']);
    expect(answer.headers['x-custom-thing']).toBe('café');
    expect(answer.headers['retry-after']).toBe('7');
    // A header named __proto__ is an own property, never the object's prototype.
    expect(Object.getPrototypeOf(answer.headers)).toBe(Object.prototype);
    expect(Object.hasOwn(answer.headers, '__proto__')).toBe(true);
  });

  it('reads a JSON answer whole, without a body stream', async () => {
    const answer = await fetchAnswer('/json');
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('application/json');
    expect(answer.body).toBeNull();
    expect(answer.text).toBe('{"ok":true,"usage":{"prompt_tokens":1}}');
  });

  it('hands an event stream over as a readable body at its headers', async () => {
    const answer = await fetchAnswer('/events');
    expect(answer.text).toBeNull();
    expect((await readAll(answer.body!)).toString()).toBe('data: 1\n\ndata: [DONE]\n\n');
  });

  it('pipes a large binary answer with backpressure, every byte delivered', async () => {
    const answer = await fetchAnswer('/large-binary');
    const body = answer.body!;
    body.pause();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Paused consumer: the readable holds at most about its buffer, the rest waits upstream.
    expect(body.readableLength).toBeLessThan(2 * 1024 * 1024);
    const bytes = await readAll(body);
    expect(bytes.length).toBe(2 * 1024 * 1024);
    expect(bytes.every((byte) => byte === 7)).toBe(true);
  });

  it('reads an error answer up to 64 KB', async () => {
    const answer = await fetchAnswer('/error');
    expect(answer.statusCode).toBe(500);
    expect(answer.text?.length).toBe(MAX_ERROR_BODY_BYTES);
    expect(answer.text?.startsWith('{"error":"xxx')).toBe(true);
  });

  it('tells a body cut short from an upstream not reached', async () => {
    const cut = await fetchAnswer('/cut').catch((error: unknown) => error);
    expect(cut).toBeInstanceOf(UpstreamBodyCut);
    expect((cut as UpstreamBodyCut).statusCode).toBe(200);
    const unreachable = await fetchAnswer('/json', new RelayAbort(), 'http://127.0.0.1:1').catch(
      (error: unknown) => error,
    );
    expect(unreachable).toBeInstanceOf(Error);
    expect(unreachable).not.toBeInstanceOf(UpstreamBodyCut);
  });

  it('cancels the upstream request when the call is aborted, before or after the headers', async () => {
    const early = new RelayAbort();
    early.abort();
    await expect(fetchAnswer('/json', early)).rejects.toMatchObject({ code: 'UND_ERR_ABORTED' });

    const waiting = new RelayAbort();
    const pending = fetchAnswer('/slow', waiting);
    await new Promise((resolve) => setTimeout(resolve, 50));
    waiting.abort();
    await expect(pending).rejects.toMatchObject({ code: 'UND_ERR_ABORTED' });
    await expect.poll(() => closed.includes('/slow')).toBe(true);
    expect(waiting.listenerCount('abort')).toBe(0);

    const streaming = new RelayAbort();
    const answer = await fetchAnswer('/slow-events', streaming);
    answer.body!.on('error', () => undefined);
    streaming.abort();
    await expect.poll(() => closed.includes('/slow-events')).toBe(true);
    await expect.poll(() => answer.body!.destroyed).toBe(true);
  });

  it('stops listening to the call once the answer is complete', async () => {
    const signal = new RelayAbort();
    await fetchAnswer('/json', signal);
    expect(signal.listenerCount('abort')).toBe(0);
  });

  it("gives up on an upstream silent past the first-byte timeout, with undici's timeout error", async () => {
    for (const ms of [1_000, 400]) {
      closed.length = 0;
      const startedAt = performance.now();
      await expect(fetchAnswer('/silent', new RelayAbort(), origin, timeoutsOf(ms))).rejects.toMatchObject({
        code: 'UND_ERR_HEADERS_TIMEOUT',
      });
      const waited = performance.now() - startedAt;
      expect(waited).toBeGreaterThanOrEqual(ms - 300);
      expect(waited).toBeLessThan(ms + 1_500);
      await expect.poll(() => closed.includes('/silent')).toBe(true);
    }
  });

  it('cuts an answer whose body goes silent past the idle timeout, and not one that keeps coming', async () => {
    const stalled = await fetchAnswer('/stalled', new RelayAbort(), origin, timeoutsOf(1_000)).catch(
      (error: unknown) => error,
    );
    expect(stalled).toBeInstanceOf(UpstreamBodyCut);
    expect((stalled as UpstreamBodyCut).cause).toMatchObject({ code: 'UND_ERR_BODY_TIMEOUT' });
    await expect.poll(() => closed.includes('/stalled')).toBe(true);
    // 1.8 s in all, never 1 s silent.
    const trickled = await fetchAnswer('/trickle', new RelayAbort(), origin, timeoutsOf(1_000));
    expect(trickled.text?.trim()).toBe('{}');
  });
});
