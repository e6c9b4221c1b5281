/**
 * The floor for any Node gateway: node:http in front of one undici Agent (keep-alive pool with
 * Switchyard's timeouts but no cap on connections per origin, undici's default), no auth, no
 * billing, no parsing. Request and
 * response bodies are streamed through untouched; a client that leaves aborts the upstream call.
 * Plain JavaScript on purpose, so its memory is not inflated by a TypeScript loader.
 *
 *   node bench/src/bare-proxy.mjs --port 4100 --upstream http://127.0.0.1:4010
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { Agent } from 'undici';

const { values } = parseArgs({
  options: { port: { type: 'string' }, upstream: { type: 'string' }, host: { type: 'string' } },
});
if (!values.port || !values.upstream) {
  process.stderr.write('usage: bare-proxy.mjs --port <port> --upstream <origin>\n');
  process.exit(2);
}
const origin = new URL(values.upstream).origin;

const agent = new Agent({
  keepAliveTimeout: 30_000,
  keepAliveMaxTimeout: 600_000,
  pipelining: 1,
});

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
]);

function forwardHeaders(raw) {
  const headers = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (!HOP_BY_HOP.has(name)) headers[name] = raw[i + 1];
  }
  return headers;
}

const server = createServer((request, response) => {
  if (request.url === '/__bare/health') {
    response.end('ok');
    return;
  }
  const abort = new AbortController();
  response.once('close', () => {
    if (!response.writableFinished) abort.abort();
  });
  agent.stream(
    {
      origin,
      path: request.url,
      method: request.method,
      headers: forwardHeaders(request.rawHeaders),
      body: request.method === 'GET' || request.method === 'HEAD' ? null : request,
      signal: abort.signal,
    },
    ({ statusCode, headers }) => {
      const out = {};
      for (const [name, value] of Object.entries(headers)) {
        if (!HOP_BY_HOP.has(name)) out[name] = value;
      }
      response.writeHead(statusCode, out);
      return response;
    },
    (error) => {
      if (!error) return;
      if (!response.headersSent) {
        response.writeHead(502, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: 'bad gateway', type: 'bare_proxy_error' } }));
      } else {
        response.destroy(error);
      }
    },
  );
});
server.keepAliveTimeout = 65_000;
server.listen({ port: Number(values.port), host: values.host ?? '127.0.0.1', backlog: 8192 }, () => {
  process.stdout.write(`bare proxy on http://127.0.0.1:${values.port} → ${origin}\n`);
});
const stop = () => server.close(() => agent.close().then(() => process.exit(0)));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
