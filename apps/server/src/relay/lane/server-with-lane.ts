import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { RelayLane } from './relay-lane.ts';

/** The server options Fastify applies to the HTTP/1 server it makes itself. */
interface ServerTimeouts {
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
}

/**
 * Fastify's `serverFactory`: the HTTP/1 server Fastify would make (same keep-alive, request and
 * connection timeouts), where the relay lane takes its requests first and Fastify every other.
 */
export function serverWithLane(
  lane: RelayLane,
  fastifyHandler: (request: IncomingMessage, response: ServerResponse) => void,
  options: ServerTimeouts,
): Server {
  const server = createServer((request, response) => {
    if (!lane.serve(request, response)) fastifyHandler(request, response);
  });
  if (options.keepAliveTimeout) server.keepAliveTimeout = options.keepAliveTimeout;
  if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
  server.setTimeout(options.connectionTimeout ?? 0);
  if (options.maxRequestsPerSocket && options.maxRequestsPerSocket > 0) {
    server.maxRequestsPerSocket = options.maxRequestsPerSocket;
  }
  return server;
}
