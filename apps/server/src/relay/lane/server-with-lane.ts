import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { RelayLane } from './relay-lane.ts';

/** The server options Fastify applies to the HTTP/1 server it makes itself. */
interface ServerTimeouts {
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
}

/** A request listener: the relay lane's routes first, Fastify every other request. */
export function frontDoor(
  lane: RelayLane,
  fastifyHandler: (request: IncomingMessage, response: ServerResponse) => void,
): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    if (!lane.serve(request, response)) fastifyHandler(request, response);
  };
}

/**
 * Fastify's `serverFactory`: the HTTP/1 server Fastify would make (same keep-alive, request and
 * connection timeouts), listening with the front door.
 */
export function serverWithLane(
  door: (request: IncomingMessage, response: ServerResponse) => void,
  options: ServerTimeouts,
): Server {
  const server = createServer(door);
  if (options.keepAliveTimeout) server.keepAliveTimeout = options.keepAliveTimeout;
  if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
  server.setTimeout(options.connectionTimeout ?? 0);
  if (options.maxRequestsPerSocket && options.maxRequestsPerSocket > 0) {
    server.maxRequestsPerSocket = options.maxRequestsPerSocket;
  }
  return server;
}
