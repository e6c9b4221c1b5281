import type { Readable } from 'node:stream';

/** What a pass-through sender does with the upstream body; `send` writes bytes to the client. */
export interface BodyRelay {
  /** One upstream chunk; return false to end the client's stream after what was sent. */
  chunk(chunk: Uint8Array, send: (bytes: Uint8Array) => void): boolean;
  /** The upstream body ended normally. */
  end(send: (bytes: Uint8Array) => void): void;
  /** The upstream body failed (or closed before its end); the client's stream ends after this. */
  fail(error: unknown, send: (bytes: Uint8Array) => void): void;
  /** Runs once, when the client's stream is over for any reason (ended, failed, closed). */
  settle(): void;
}

/**
 * The client's side of a pass-through: Node's `ServerResponse` (its headers already set), or any
 * writable that says when it is full ('drain') and when it is gone ('close').
 */
export interface ClientSide {
  write(bytes: Uint8Array): boolean;
  end(): unknown;
  readonly destroyed: boolean;
  readonly writableEnded: boolean;
  once(event: 'drain' | 'close', listener: () => void): unknown;
}

const discard = () => undefined;
const cutShort = () => new Error('upstream body closed before its end');
const clientGone = () => new Error('client stream closed before its end');

/**
 * Pumps the upstream body to the client: each 'data' chunk goes through `relay`, whose bytes are
 * written straight to the response (no readable in between, so no second buffer and no pipe per
 * stream), with backpressure (the upstream is paused while the client's socket is full, until
 * 'drain'). When the response closes before the upstream body was over (the client left, or its
 * socket failed) the relay learns it as a failure and the upstream body is destroyed;
 * `relay.settle` runs once in every case.
 */
export function pumpBody(body: Readable, client: ClientSide, relay: BodyRelay): void {
  let over = false;
  let settled = false;
  let waiting = false;
  const settleOnce = () => {
    if (settled) return;
    settled = true;
    relay.settle();
  };
  const onDrain = () => {
    waiting = false;
    if (!over) body.resume();
  };
  const send = (bytes: Uint8Array) => {
    if (bytes.length === 0 || client.destroyed || client.writableEnded) return;
    if (!client.write(bytes) && !waiting) {
      waiting = true;
      body.pause();
      client.once('drain', onDrain);
    }
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
    if (!client.destroyed && !client.writableEnded) client.end();
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
  client.once('close', () => {
    // Closed before the upstream body was over: the sender learns it as a failure, with nothing
    // more to send.
    if (!over) {
      stop();
      relay.fail(clientGone(), discard);
    }
    if (!body.destroyed) body.destroy();
    settleOnce();
  });
  // Already over before the pump started (the client or a timeout aborted it meanwhile): its
  // events are gone, so the ending is reported here, as an async iterator would have thrown.
  if (body.destroyed) {
    process.nextTick(onError, body.errored ?? cutShort());
  }
}
