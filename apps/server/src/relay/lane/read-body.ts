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
  const chunks: Buffer[] = [];
  let received = 0;
  const stop = () => {
    request.removeListener('data', onData);
    request.removeListener('end', onEnd);
    request.removeListener('error', onError);
  };
  const onData = (chunk: Buffer) => {
    received += chunk.length;
    if (received > limit) {
      stop();
      done(bodyTooLargeError(), undefined);
      return;
    }
    chunks.push(chunk);
  };
  const onEnd = () => {
    stop();
    if (!Number.isNaN(declared) && received !== declared) {
      done(invalidBodyError(), undefined);
      return;
    }
    // Always a copy: the parser must not hold a view over the socket's read buffer.
    done(null, Buffer.concat(chunks, received));
  };
  // A failed upload (the client went away mid-body) is the client's fault, as Fastify answers it.
  const onError = () => {
    stop();
    done(invalidBodyError(), undefined);
  };
  request.on('data', onData);
  request.on('end', onEnd);
  request.on('error', onError);
}
