/**
 * The buffered floor: the least a Node pass-through does for a non-stream call. node:http in front
 * of one undici `Pool` to the upstream (keep-alive, no cap on connections, undici's default); it
 * reads the whole request body, sends it with `pool.request`, reads the whole answer and writes it
 * with its length. No auth, billing, parsing, routing, logging or metrics.
 *
 * What it leaves out on purpose, and a gateway cannot: a streamed answer reaches the client only
 * when it has ended (no first byte early), and a client that leaves does not cancel the upstream
 * call (no AbortController). bare-proxy.mjs is the streaming floor that does both.
 * Plain JavaScript, so its memory is not inflated by a TypeScript loader.
 *
 *   node bench/src/pool-proxy.mjs --port 4101 --upstream http://127.0.0.1:4010
 */
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';

const { values } = parseArgs({
  options: { port: { type: 'string' }, upstream: { type: 'string' }, host: { type: 'string' } },
});
if (!values.port || !values.upstream) {
  process.stderr.write('usage: pool-proxy.mjs --port <port> --upstream <origin>\n');
  process.exit(2);
}
const origin = new URL(values.upstream).origin;

const pool = new Pool(origin, { keepAliveTimeout: 30_000, keepAliveMaxTimeout: 600_000, pipelining: 1 });

/** Not forwarded either way; `content-length` is set from the buffered body instead. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
  'content-length',
]);

function forwardHeaders(raw) {
  const headers = {};
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (!HOP_BY_HOP.has(name)) headers[name] = raw[i + 1];
  }
  return headers;
}

function readAll(stream) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    stream.on('data', (chunk) => chunks.push(chunk));
    stream.once('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    stream.once('error', reject);
  });
}

async function relay(request, response) {
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  const body = hasBody ? await readAll(request) : null;
  const upstream = await pool.request({
    path: request.url,
    method: request.method,
    headers: forwardHeaders(request.rawHeaders),
    body,
  });
  const answer = Buffer.from(await upstream.body.arrayBuffer());
  const headers = {};
  for (const [name, value] of Object.entries(upstream.headers)) {
    if (!HOP_BY_HOP.has(name)) headers[name] = value;
  }
  headers['content-length'] = answer.length;
  response.writeHead(upstream.statusCode, headers);
  response.end(answer);
}

const server = createServer((request, response) => {
  if (request.url === '/__pool/health') {
    response.end('ok');
    return;
  }
  relay(request, response).catch(() => {
    if (response.headersSent) {
      response.destroy();
      return;
    }
    response.writeHead(502, { 'content-type': 'application/json' });
    response.end(JSON.stringify({ error: { message: 'bad gateway', type: 'pool_proxy_error' } }));
  });
});
server.keepAliveTimeout = 65_000;
server.listen({ port: Number(values.port), host: values.host ?? '127.0.0.1', backlog: 8192 }, () => {
  process.stdout.write(`pool proxy on http://127.0.0.1:${values.port} → ${origin}\n`);
});
const stop = () => server.close(() => pool.close().then(() => process.exit(0)));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
