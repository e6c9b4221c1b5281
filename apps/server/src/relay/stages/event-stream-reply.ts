import type { Readable } from 'node:stream';
import type { ProtocolCodec } from '@switchyard/relay-kit';
import type { RelayReply } from '../lane/relay-reply.ts';
import type { RelayAbort } from '../relay-abort.ts';
import { type BodyRelay, pumpBody } from './body-pump.ts';

/** Why a stream ended early, as the consume log says it. */
export const CLIENT_LEFT = '客户端中断了请求';

/** The client protocol's error event for an upstream that failed mid-stream. */
export function interruptedStreamEvent(codec: ProtocolCodec): Buffer {
  return Buffer.from(
    codec.formatStreamError({ status: 502, message: 'upstream stream interrupted', type: 'upstream_error' }),
  );
}

/**
 * Sends `body` as a server-sent-event response (`sendPiped` with the event-stream headers).
 */
export function sendEventStream(
  reply: RelayReply,
  abort: RelayAbort,
  body: Readable,
  relay: BodyRelay,
): RelayReply {
  reply
    .code(200)
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('connection', 'keep-alive')
    .header('x-accel-buffering', 'no');
  return sendPiped(reply, abort, body, relay);
}

/**
 * Sends a body as it comes, with the status and headers set so far: its chunks go through `relay`
 * and straight to the client's response (body-pump.ts). When the connection closes, a client that
 * left before the end aborts the upstream call (`abort`); the pump then tells the relay (`fail`,
 * then `settle`) — the senders report the call's outcome there (or earlier, when the body ends).
 */
export function sendPiped(
  reply: RelayReply,
  abort: RelayAbort,
  body: Readable,
  relay: BodyRelay,
): RelayReply {
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) abort.abort();
  });
  pumpBody(body, reply.takeOver(), relay);
  return reply;
}
