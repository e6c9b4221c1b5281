import type { ServerResponse } from 'node:http';
import type { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { RelayReply } from '../relay-exchange.ts';
import { type BodyRelay, pumpBody } from './body-pump.ts';

/**
 * The raw response, for a sender that writes the body itself, with the status and headers set so
 * far on it (they go out with the first bytes). The relay lane's reply hands it over; Fastify's
 * is hijacked (it then sends nothing itself, and its onResponse hooks still run when the response
 * is over), its headers copied first, since Fastify keeps them on the reply until it sends.
 */
export function takeOverResponse(reply: RelayReply): ServerResponse {
  if (reply.takeOver) return reply.takeOver();
  const fastifyReply = reply as unknown as FastifyReply;
  const headers = fastifyReply.getHeaders();
  fastifyReply.hijack();
  const res = reply.raw;
  for (const name of Object.keys(headers)) {
    const value = headers[name];
    if (value !== undefined) res.setHeader(name, value);
  }
  return res;
}

/**
 * Sends a pass-through body: the upstream chunks go through `relay` and straight to the client's
 * response (body-pump.ts), instead of through a readable that the reply pipes.
 */
export function relayResponse(reply: RelayReply, body: Readable, relay: BodyRelay): RelayReply {
  pumpBody(body, takeOverResponse(reply), relay);
  return reply;
}
