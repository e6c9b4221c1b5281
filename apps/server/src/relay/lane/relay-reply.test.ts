import { once } from 'node:events';
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { RelayReply } from './relay-reply.ts';
import type { RelayRequest } from './relay-request.ts';

const silent = { warn: () => {} } as unknown as FastifyBaseLogger;

/** The request a reply answers: a relay route's (it sets its own added time). */
const requestLogging = (log: FastifyBaseLogger) =>
  ({ log, routeOptions: { config: { relay: true } } }) as unknown as RelayRequest;
const servers: ReturnType<typeof createServer>[] = [];

afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/** Serves one request with `answer`, and returns the status, raw headers and body the client got. */
async function exchange(answer: (reply: RelayReply, res: ServerResponse) => void) {
  const server = createServer((_req: IncomingMessage, res: ServerResponse) => {
    answer(new RelayReply(res, requestLogging(silent), performance.now()), res);
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/' });
  req.end();
  const [res] = (await once(req, 'response')) as [IncomingMessage];
  let body = '';
  for await (const chunk of res) body += chunk;
  const headers: Record<string, string[]> = {};
  for (let index = 0; index < res.rawHeaders.length; index += 2) {
    const name = res.rawHeaders[index]!.toLowerCase();
    headers[name] = [...(headers[name] ?? []), res.rawHeaders[index + 1]!];
  }
  return { status: res.statusCode, headers, body };
}

describe('RelayReply', () => {
  it('sends a whole answer with its headers, the status and a content length', async () => {
    const got = await exchange((reply) => {
      reply.header('X-Oneapi-Request-Id', 'abc').code(201).header('content-type', 'application/json');
      reply.send('{"ok":true}');
    });
    expect(got.status).toBe(201);
    expect(got.headers['x-oneapi-request-id']).toEqual(['abc']);
    expect(got.headers['content-type']).toEqual(['application/json']);
    expect(got.headers['content-length']).toEqual([String(Buffer.byteLength('{"ok":true}'))]);
    expect(got.body).toBe('{"ok":true}');
  });

  it('replaces a header set again under another case, and answers hasHeader for it', async () => {
    let seen: boolean[] = [];
    const got = await exchange((reply) => {
      reply.header('Content-Type', 'text/html');
      reply.header('content-type', 'application/json');
      seen = [reply.hasHeader('CONTENT-TYPE'), reply.hasHeader('x-missing')];
      reply.send('你好');
    });
    expect(seen).toEqual([true, false]);
    expect(got.headers['content-type']).toEqual(['application/json']);
    expect(got.headers['content-length']).toEqual([String(Buffer.byteLength('你好'))]);
  });

  it('gives default content types by payload, JSON for objects', async () => {
    const text = await exchange((reply) => reply.send('plain'));
    expect(text.headers['content-type']).toEqual(['text/plain; charset=utf-8']);
    const json = await exchange((reply) => reply.code(400).send({ error: { message: 'bad' } }));
    expect(json.status).toBe(400);
    expect(json.headers['content-type']).toEqual(['application/json; charset=utf-8']);
    expect(JSON.parse(json.body)).toEqual({ error: { message: 'bad' } });
    const bytes = await exchange((reply) => reply.send(Buffer.from([1, 2, 3])));
    expect(bytes.headers['content-type']).toEqual(['application/octet-stream']);
    expect(bytes.headers['content-length']).toEqual(['3']);
  });

  it('keeps headers set on the raw response beside its own', async () => {
    const got = await exchange((reply, res) => {
      res.setHeader('x-raw', '1');
      reply.header('x-own', '2');
      expect(reply.hasHeader('x-raw')).toBe(true);
      reply.send('ok');
    });
    expect(got.headers['x-raw']).toEqual(['1']);
    expect(got.headers['x-own']).toEqual(['2']);
  });

  it('hands the response over with its status and headers written once, dropping a later header', async () => {
    const warnings: unknown[] = [];
    const got = await exchange((_reply, res) => {
      const reply = new RelayReply(
        res,
        requestLogging({
          warn: (details: unknown) => warnings.push(details),
        } as unknown as FastifyBaseLogger),
        performance.now(),
      );
      reply.code(202).header('content-type', 'text/event-stream').header('x-oneapi-request-id', 'r2');
      const raw = reply.takeOver();
      expect(reply.sent).toBe(true);
      reply.header('x-late', 'no');
      raw.write('data: 1\n\n');
      raw.end('data: 2\n\n');
    });
    expect(got.status).toBe(202);
    expect(got.headers['content-type']).toEqual(['text/event-stream']);
    expect(got.headers['x-oneapi-request-id']).toEqual(['r2']);
    expect(got.headers['x-late']).toBeUndefined();
    expect(got.body).toBe('data: 1\n\ndata: 2\n\n');
    expect(warnings).toEqual([{ header: 'x-late' }]);
  });
});
