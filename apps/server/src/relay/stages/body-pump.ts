import { Readable } from 'node:stream';

/** What a pass-through sender does with the upstream body; `send` queues bytes for the client. */
export interface BodyRelay {
  /** One upstream chunk; return false to end the client's stream after what was sent. */
  chunk(chunk: Uint8Array, send: (bytes: Uint8Array) => void): boolean;
  /** The upstream body ended normally. */
  end(send: (bytes: Uint8Array) => void): void;
  /** The upstream body failed (or closed before its end); the client's stream ends after this. */
  fail(error: unknown, send: (bytes: Uint8Array) => void): void;
  /** Runs once, when the client's stream is over for any reason (ended, failed, destroyed). */
  settle(): void;
}

const discard = () => undefined;
const cutShort = () => new Error('upstream body closed before its end');

/**
 * The client's side of a pass-through: a readable that Fastify sends, fed from the upstream body's
 * 'data' events through `relay`, with backpressure (the upstream is paused while the client's
 * side is full). Replaces an async generator wrapped in `Readable.from`, which cost a promise per
 * chunk on each side and kept an iterator, a generator and their closures per stream. When the
 * client's side is destroyed (Fastify does so when the client leaves) the upstream body is
 * destroyed too and `relay.settle` runs.
 */
export function pumpBody(body: Readable, relay: BodyRelay): Readable {
  let over = false;
  let settled = false;
  const settleOnce = () => {
    if (settled) return;
    settled = true;
    relay.settle();
  };
  const output = new Readable({
    read() {
      if (!over && body.isPaused()) body.resume();
    },
    destroy(error, callback) {
      // Destroyed before the upstream body was over (the client left, or its socket failed):
      // the sender learns it as a failure, with nothing more to send.
      if (!over) {
        stop();
        relay.fail(error ?? new Error('client stream closed before its end'), discard);
      }
      if (!body.destroyed) body.destroy();
      settleOnce();
      callback(error);
    },
  });
  const send = (bytes: Uint8Array) => {
    if (bytes.length > 0 && !output.destroyed && !output.push(bytes)) body.pause();
  };
  const stop = () => {
    if (over) return;
    over = true;
    body.off('data', onData);
    body.off('end', onEnd);
    body.off('error', onError);
    body.off('close', onClose);
  };
  const close = () => {
    if (!output.destroyed) output.push(null);
    settleOnce();
  };
  const onData = (chunk: Uint8Array) => {
    if (over) return;
    if (relay.chunk(chunk, send)) return;
    stop();
    body.destroy();
    close();
  };
  const onEnd = () => {
    if (over) return;
    stop();
    relay.end(send);
    close();
  };
  const onError = (error: unknown) => {
    if (over) return;
    stop();
    relay.fail(error, send);
    close();
  };
  // Destroyed without an error and without its end: the upstream was cut.
  const onClose = () => onError(cutShort());
  body.on('data', onData);
  body.once('end', onEnd);
  body.once('error', onError);
  body.once('close', onClose);
  // Already over before the pump started (the client or a timeout aborted it meanwhile): its
  // events are gone, so the ending is reported here, as an async iterator would have thrown.
  if (body.destroyed) {
    process.nextTick(onError, body.errored ?? cutShort());
  }
  return output;
}
