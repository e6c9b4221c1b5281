import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createRequestListener } from './request-dispatcher.ts';
import { type RecordedRequest, RequestRecorder } from './request-recorder.ts';

/** Options of {@link startMockUpstream}. */
export interface MockUpstreamOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  readonly port?: number;
  /** Interface to bind; `127.0.0.1` by default. */
  readonly host?: string;
  /** How many recent requests to keep for inspection (1000 by default; 0 turns recording off). */
  readonly recordLimit?: number;
}

/** A running mock upstream. */
export interface MockUpstream {
  /** Base URL, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  readonly url: string;
  readonly port: number;
  /** The most recent requests, oldest first (a fresh snapshot on every read). */
  readonly requests: RecordedRequest[];
  /** The most recent request, if any. */
  lastRequest(): RecordedRequest | undefined;
  /** Forgets the recorded requests. */
  clearRequests(): void;
  /** Stops listening and destroys every open connection, including open streams. */
  close(): Promise<void>;
}

/** Default size of the recorded-request ring buffer. */
export const defaultRecordLimit = 1000;

function formatUrlHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}

/**
 * Starts the mock upstream on `host:port` and resolves once it listens. Built on `node:http`
 * alone and tuned for load tests: long keep-alive, no socket inactivity timeout (slow streams
 * and the `timeout` scenario stay open), a large accept backlog.
 */
export async function startMockUpstream(options: MockUpstreamOptions = {}): Promise<MockUpstream> {
  const host = options.host ?? '127.0.0.1';
  const recorder = new RequestRecorder(options.recordLimit ?? defaultRecordLimit);
  const sockets = new Set<Socket>();
  const status = { startedAt: Date.now(), openConnections: () => sockets.size };
  const server = createServer({ keepAlive: true, noDelay: true }, createRequestListener(recorder, status));
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 60_000;
  server.requestTimeout = 120_000;
  server.timeout = 0;
  server.maxHeadersCount = 200;
  server.maxRequestsPerSocket = 0;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (error.code === 'ECONNRESET' || !socket.writable) socket.destroy();
    else socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port ?? 0, host, backlog: 8192 }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${formatUrlHost(host)}:${port}`;
  let closing: Promise<void> | undefined;

  return {
    url,
    port,
    get requests() {
      return recorder.list();
    },
    lastRequest: () => recorder.list().at(-1),
    clearRequests: () => recorder.clear(),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      });
      return closing;
    },
  };
}
