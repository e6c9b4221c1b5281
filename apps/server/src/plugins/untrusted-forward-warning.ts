import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyBaseLogger } from 'fastify';

/** At most one warning per this many milliseconds (a misconfigured proxy sends every request). */
export const UNTRUSTED_FORWARD_WARN_EVERY_MS = 3_600_000;

/** The warning's text: what was ignored and how to trust the proxy. */
export function untrustedForwardMessage(address: string): string {
  return (
    `X-Forwarded-For from ${address} is ignored: that address is not a trusted proxy, so client ` +
    "addresses (token IP allow-lists, per-IP rate limits, logs) are the proxy's own. If a reverse " +
    `proxy in docker or on your LAN sends these requests, trust it: TRUSTED_PROXIES=loopback,${address} ` +
    '(or its subnet, e.g. 172.16.0.0/12 for docker networks); see README, "Behind a reverse proxy".'
  );
}

/**
 * Whether a request's X-Forwarded-For came from an address TRUSTED_PROXIES does not trust, as a
 * per-request check that costs one header read; it logs a warning at most once an hour.
 */
export function untrustedForwardWarning(
  trustProxy: boolean | string,
  log: FastifyBaseLogger,
  now: () => number = Date.now,
): (request: IncomingMessage) => void {
  if (trustProxy === true) return () => {};
  const trusted =
    trustProxy === false
      ? () => false
      : proxyAddr.compile(
          trustProxy
            .split(',')
            .map((value) => value.trim())
            .filter((value) => value !== ''),
        );
  let quietUntil = 0;
  return (request) => {
    if (request.headers['x-forwarded-for'] === undefined) return;
    const at = now();
    if (at < quietUntil) return;
    const address = request.socket.remoteAddress ?? '';
    if (trusted(address, 0)) return;
    quietUntil = at + UNTRUSTED_FORWARD_WARN_EVERY_MS;
    log.warn({ remoteAddress: address }, untrustedForwardMessage(address));
  };
}
