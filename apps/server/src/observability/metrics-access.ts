import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/** What GET /metrics answers a caller: the metrics, 401 (wrong or missing token) or 404 (hidden). */
export type MetricsAccess = 'allowed' | 'unauthorized' | 'hidden';

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return null;
  const token = header.slice(7).trim();
  return token === '' ? null : token;
}

/**
 * Who may scrape /metrics:
 * - with METRICS_TOKEN set, whoever sends `Authorization: Bearer <METRICS_TOKEN>` (compared in
 *   constant time), from any address; anyone else gets 401;
 * - without it, only a direct connection from the loopback interface that no proxy forwarded
 *   (no X-Forwarded-For / Forwarded header: a reverse proxy on the same host would otherwise
 *   expose the metrics to the internet); anyone else gets 404, as if the route did not exist.
 */
export function metricsAccessOf(request: FastifyRequest, metricsToken: string | null): MetricsAccess {
  if (metricsToken !== null) {
    const presented = bearerOf(request);
    if (presented !== null && timingSafeEqual(digest(presented), digest(metricsToken))) return 'allowed';
    return 'unauthorized';
  }
  const forwarded =
    request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  const address = request.raw.socket?.remoteAddress ?? '';
  return !forwarded && LOOPBACK.test(address) ? 'allowed' : 'hidden';
}
