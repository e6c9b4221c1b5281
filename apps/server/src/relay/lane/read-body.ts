import type { IncomingMessage } from 'node:http';
import type { GatewayError } from '../../errors/gateway-error.ts';
import { bodyTooLargeError, invalidBodyError } from '../../plugins/error-handler.ts';

/**
 * Reads a request body into one Buffer of at most `limit` bytes, as Fastify's raw-body parser
 * does for the relay routes: a declared or received length over the limit is a 413 (the rest is
 * not kept), a body shorter or longer than its declared length a 400. Callback style: one call
 * per relay request on the hot path, without a promise.
 */
export function readBody(
  request: IncomingMessage,
  limit: number,
  done: (error: GatewayError | null, body: Buffer | undefined) => void,
): void {
  const declared = Number(request.headers['content-length']);
  if (declared > limit) {
    done(bodyTooLargeError(), undefined);
    return;
  }
  // Null once answered. The listeners stay (removing three per request costs more than this), and
  // the 'error' one keeps a late failure of the request from being an unhandled 'error' event;
  // what they held (views over the socket's read buffers) is let go.
  let chunks: Buffer[] | null = [];
  let received = 0;
  const onData = (chunk: Buffer) => {
    if (chunks === null) return;
    received += chunk.length;
    if (received > limit) {
      chunks = null;
      done(bodyTooLargeError(), undefined);
      return;
    }
    chunks.push(chunk);
  };
  const onEnd = () => {
    if (chunks === null) return;
    const parts = chunks;
    chunks = null;
    if (!Number.isNaN(declared) && received !== declared) {
      done(invalidBodyError(), undefined);
      return;
    }
    // Always a copy: the parser must not hold a view over the socket's read buffer.
    done(null, Buffer.concat(parts, received));
  };
  // A failed upload (the client went away mid-body) is the client's fault, as Fastify answers it.
  const onError = () => {
    if (chunks === null) return;
    chunks = null;
    done(invalidBodyError(), undefined);
  };
  request.on('data', onData);
  request.on('end', onEnd);
  request.on('error', onError);
}
