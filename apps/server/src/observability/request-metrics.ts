import type { FastifyInstance } from 'fastify';
import { routeFamilyOf } from '../plugins/route-family.ts';
import { ADDED_TIME_HEADER, formatAddedMs } from './added-time.ts';
import type { GatewayMetrics } from './gateway-metrics.ts';

/** The paths served by the observability routes. */
export const OBSERVABILITY_PATHS: ReadonlySet<string> = new Set(['/metrics', '/healthz', '/readyz']);

/**
 * Whether a path is one of the observability endpoints (probes and scrapes): per-IP limits meant
 * for console page loads should exempt them.
 */
export function isObservabilityPath(url: string): boolean {
  const query = url.indexOf('?');
  return OBSERVABILITY_PATHS.has(query === -1 ? url : url.slice(0, query));
}

/** The `family` label: the error-shape family of the path, or `internal` for the endpoints above. */
export function metricFamilyOf(url: string): string {
  return isObservabilityPath(url) ? 'internal' : routeFamilyOf(url);
}

/**
 * The playground's paths (/pg/) answer without a whole-handling `X-Switchyard-Added-Ms`: its
 * route (on the relay lane) sets the header itself, and Fastify's answers there (a 404) follow it.
 */
function isPlaygroundPath(url: string): boolean {
  return url.startsWith('/pg/');
}

/**
 * Adds the app-wide hooks of the requests Fastify serves (the relay lane counts and times relay
 * calls itself): every answered request is counted and timed, and gets `X-Switchyard-Added-Ms`.
 * Must be called on the root instance (or from a plugin marked skip-override).
 */
export function installRequestMetrics(app: FastifyInstance, metrics: GatewayMetrics): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!isPlaygroundPath(request.url) && !reply.hasHeader(ADDED_TIME_HEADER)) {
      reply.header(ADDED_TIME_HEADER, formatAddedMs(reply.elapsedTime));
    }
    done(null, payload);
  });
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequest(
      metricFamilyOf(request.url),
      request.method,
      reply.statusCode,
      reply.elapsedTime / 1000,
    );
    done();
  });
}
