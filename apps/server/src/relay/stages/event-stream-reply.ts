import type { Readable } from 'node:stream';
import type { ProtocolCodec } from '@switchyard/relay-kit';
import type { RelayReply } from '../lane/relay-reply.ts';
import type { RelayAbort } from '../relay-abort.ts';
import type { BodyRelay } from './body-pump.ts';
import { relayResponse } from './relay-response.ts';

/** Why a stream ended early, as the consume log says it. */
export const CLIENT_LEFT = '客户端中断了请求';

/** The client protocol's error event for an upstream that failed mid-stream. */
export function interruptedStreamEvent(codec: ProtocolCodec): Buffer {
  return Buffer.from(
    codec.formatStreamError({ status: 502, message: 'upstream stream interrupted', type: 'upstream_error' }),
  );
}

/**
 * Sends `body` as a server-sent-event response: a readable the reply pipes (the conversion path),
 * or a pass-through's upstream body with the `relay` that writes its chunks straight to the
 * response. When the connection closes, a client that left before the end aborts the upstream
 * call (`abort`), then `onClose(clientLeft)` runs — the senders report the call's outcome there
 * (or earlier, when the body ends).
 */
export function sendEventStream(
  reply: RelayReply,
  abort: RelayAbort,
  body: Readable,
  onClose: (clientLeft: boolean) => void,
  relay?: BodyRelay,
): RelayReply {
  reply.raw.once('close', () => {
    const clientLeft = !reply.raw.writableFinished;
    if (clientLeft) abort.abort();
    onClose(clientLeft);
  });
  reply
    .code(200)
    .header('content-type', 'text/event-stream; charset=utf-8')
    .header('cache-control', 'no-cache')
    .header('connection', 'keep-alive')
    .header('x-accel-buffering', 'no');
  return relay ? relayResponse(reply, body, relay) : reply.send(body);
}
