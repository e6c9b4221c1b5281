import type { Readable } from 'node:stream';
import type { RelayReply } from '../lane/relay-reply.ts';
import { type BodyRelay, pumpBody } from './body-pump.ts';

/**
 * Sends a pass-through body: the upstream chunks go through `relay` and straight to the client's
 * response (body-pump.ts), which the reply hands over with the status and headers set so far.
 */
export function relayResponse(reply: RelayReply, body: Readable, relay: BodyRelay): RelayReply {
  pumpBody(body, reply.takeOver(), relay);
  return reply;
}
