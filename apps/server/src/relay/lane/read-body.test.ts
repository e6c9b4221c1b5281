import type { IncomingMessage } from 'node:http';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { isGatewayError } from '../../errors/gateway-error.ts';
import { readBody } from './read-body.ts';

/** A request stream with headers, fed `parts` then ended. */
function requestOf(headers: Record<string, string>, parts: string[]): IncomingMessage {
  const stream = new PassThrough() as unknown as IncomingMessage & PassThrough;
  Object.assign(stream, { headers });
  setImmediate(() => {
    for (const part of parts) stream.write(part);
    stream.end();
  });
  return stream;
}

const read = (request: IncomingMessage, limit: number) =>
  new Promise<{ error: unknown; body: Buffer | undefined }>((resolve) =>
    readBody(request, limit, (error, body) => resolve({ error, body })),
  );

describe('readBody', () => {
  it('joins the chunks into one buffer', async () => {
    const { error, body } = await read(requestOf({ 'content-length': '11' }, ['hello', ' world']), 100);
    expect(error).toBeNull();
    expect(body?.toString()).toBe('hello world');
  });

  it('refuses a declared length over the limit before reading (413)', async () => {
    const { error } = await read(requestOf({ 'content-length': '101' }, []), 100);
    expect(isGatewayError(error) && error.status).toBe(413);
  });

  it('refuses a chunked body once it passes the limit (413)', async () => {
    const { error, body } = await read(
      requestOf({ 'transfer-encoding': 'chunked' }, ['x'.repeat(60), 'y'.repeat(60)]),
      100,
    );
    expect(isGatewayError(error) && error.status).toBe(413);
    expect(body).toBeUndefined();
  });

  it('refuses a body shorter than its declared length (400)', async () => {
    const { error } = await read(requestOf({ 'content-length': '20' }, ['short']), 100);
    expect(isGatewayError(error) && error.status).toBe(400);
  });

  it('answers a failed upload as a 400, not a 500', async () => {
    const stream = new PassThrough() as unknown as IncomingMessage & PassThrough;
    Object.assign(stream, { headers: { 'content-length': '10' } });
    setImmediate(() => stream.destroy(new Error('aborted')));
    const { error } = await read(stream, 100);
    expect(isGatewayError(error) && error.status).toBe(400);
  });

  it('answers once: a failure after the body was read changes nothing and is not unhandled', async () => {
    const stream = new PassThrough() as unknown as IncomingMessage & PassThrough;
    Object.assign(stream, { headers: { 'content-length': '2' } });
    const answers: unknown[] = [];
    const first = new Promise<void>((resolve) =>
      readBody(stream, 100, (error, body) => {
        answers.push(error ?? body?.toString());
        resolve();
      }),
    );
    stream.end('ok');
    await first;
    stream.destroy(new Error('socket reset'));
    await new Promise((resolve) => setImmediate(resolve));
    expect(answers).toEqual(['ok']);
  });

  it('keeps nothing past the limit and answers 413 once', async () => {
    const stream = new PassThrough() as unknown as IncomingMessage & PassThrough;
    Object.assign(stream, { headers: {} });
    const answers: unknown[] = [];
    readBody(stream, 4, (error) => answers.push(isGatewayError(error) && error.status));
    stream.write('abc');
    stream.write('defg');
    stream.end('hij');
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    expect(answers).toEqual([413]);
  });
});
