import { createServer, get, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, type Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { type BodyRelay, pumpBody } from './body-pump.ts';

/** A relay that upper-cases chunks and records what happened, in order. */
function recordingRelay(options: { stopOn?: string; tail?: string } = {}) {
  const events: string[] = [];
  let settled = 0;
  const relay: BodyRelay = {
    chunk(chunk, send) {
      const text = Buffer.from(chunk).toString();
      events.push(`chunk:${text}`);
      send(Buffer.from(text.toUpperCase()));
      return text !== options.stopOn;
    },
    end(send) {
      events.push('end');
      if (options.tail) send(Buffer.from(options.tail));
    },
    fail(error, send) {
      events.push(`fail:${error instanceof Error ? error.message : String(error)}`);
      send(Buffer.from('[error]'));
    },
    settle() {
      settled++;
      events.push('settle');
    },
  };
  return { relay, events, settled: () => settled };
}

async function readAll(output: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of output) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** Pumps `body` into a fresh client side (a PassThrough standing for the response), returned to read. */
function pumpInto(body: Readable, relay: BodyRelay): PassThrough {
  const client = new PassThrough();
  pumpBody(body, client, relay);
  return client;
}

describe('pumpBody', () => {
  it('passes each chunk through the relay, then the tail, then ends and settles once', async () => {
    const body = new PassThrough();
    const { relay, events, settled } = recordingRelay({ tail: '!' });
    const output = pumpInto(body, relay);
    const text = readAll(output);
    body.write('ab');
    body.write('cd');
    body.end();
    expect(await text).toBe('ABCD!');
    expect(events).toEqual(['chunk:ab', 'chunk:cd', 'end', 'settle']);
    expect(settled()).toBe(1);
  });

  it('ends the client stream and destroys the upstream when the relay says stop', async () => {
    const body = new PassThrough();
    const { relay, events } = recordingRelay({ stopOn: 'bad' });
    const output = pumpInto(body, relay);
    const text = readAll(output);
    body.write('ok');
    await tick();
    body.write('bad');
    expect(await text).toBe('OKBAD');
    expect(body.destroyed).toBe(true);
    expect(events).toEqual(['chunk:ok', 'chunk:bad', 'settle']);
  });

  it('reports an upstream failure and sends what the relay adds for it', async () => {
    const body = new PassThrough();
    const { relay, events } = recordingRelay();
    const output = pumpInto(body, relay);
    const text = readAll(output);
    body.write('x');
    await tick();
    body.destroy(new Error('connection reset'));
    expect(await text).toBe('X[error]');
    expect(events).toEqual(['chunk:x', 'fail:connection reset', 'settle']);
  });

  it('treats an upstream closed without its end as a failure', async () => {
    const body = new PassThrough();
    const { relay, events } = recordingRelay();
    const output = pumpInto(body, relay);
    const text = readAll(output);
    body.destroy();
    expect(await text).toBe('[error]');
    expect(events).toEqual(['fail:upstream body closed before its end', 'settle']);
  });

  it('reports an upstream that was already destroyed before the pump started', async () => {
    const body = new PassThrough();
    // The relay's slot release listens for 'error' from the start (runAttempts), as here.
    body.once('error', () => undefined);
    body.destroy(new Error('aborted'));
    await tick();
    const { relay, events } = recordingRelay();
    expect(await readAll(pumpInto(body, relay))).toBe('[error]');
    expect(events).toEqual(['fail:aborted', 'settle']);
  });

  it('destroys the upstream and settles once when the client side is destroyed', async () => {
    const body = new PassThrough();
    const { relay, events, settled } = recordingRelay();
    const output = pumpInto(body, relay);
    output.resume();
    body.write('a');
    await tick();
    output.destroy();
    await tick();
    expect(body.destroyed).toBe(true);
    expect(events).toEqual(['chunk:a', 'fail:client stream closed before its end', 'settle']);
    body.write('late');
    await tick();
    expect(settled()).toBe(1);
    expect(events).toHaveLength(3);
  });

  it('pauses the upstream while the client side is full and resumes when it is read', async () => {
    const body = new PassThrough();
    const { relay } = recordingRelay();
    const output = pumpInto(body, relay);
    const big = 'y'.repeat(32 * 1024);
    body.write(big);
    await tick();
    // Nobody reads the client side: its buffer (16 KiB) is over the mark, so the upstream is
    // paused until it drains.
    expect(body.isPaused()).toBe(true);
    const text = readAll(output);
    await tick();
    expect(body.isPaused()).toBe(false);
    body.end('z');
    expect(await text).toBe(`${big.toUpperCase()}Z`);
  });

  it('writes to a real response with its headers, and settles once when the client leaves mid-stream', async () => {
    const body = new PassThrough();
    const { relay, events, settled } = recordingRelay();
    const server = createServer((_request, response: ServerResponse) => {
      response.setHeader('content-type', 'text/event-stream');
      pumpBody(body, response, relay);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const firstBytes = await new Promise<{ type: string | undefined; text: string }>((resolve, reject) => {
        const request = get({ host: '127.0.0.1', port, path: '/' }, (response) => {
          response.once('data', (chunk: Buffer) => {
            resolve({ type: response.headers['content-type'], text: chunk.toString() });
            request.destroy();
          });
        });
        request.once('error', reject);
        body.write('hello');
      });
      expect(firstBytes).toEqual({ type: 'text/event-stream', text: 'HELLO' });
      for (let wait = 0; wait < 50 && settled() === 0; wait++) await tick();
      expect(body.destroyed).toBe(true);
      expect(events).toEqual(['chunk:hello', 'fail:client stream closed before its end', 'settle']);
      expect(settled()).toBe(1);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
