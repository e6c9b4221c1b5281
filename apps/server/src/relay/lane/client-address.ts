import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/**
 * The client address of a request as Fastify's `request.ip` gives it under the same
 * `trustProxy` setting (TRUSTED_PROXIES): the socket's peer when no proxy is trusted, else the
 * nearest address of X-Forwarded-For that is not a trusted proxy (all of them trusted: the first).
 */
export function clientAddressOf(trustProxy: boolean | string): (request: IncomingMessage) => string {
  if (trustProxy === false) return (request) => request.socket.remoteAddress ?? '';
  const trust =
    trustProxy === true
      ? () => true
      : proxyAddr.compile(
          trustProxy
            .split(',')
            .map((value) => value.trim())
            .filter((value) => value !== ''),
        );
  return (request) => {
    const addresses = proxyAddr.all(request, trust);
    return addresses[addresses.length - 1] ?? '';
  };
}
