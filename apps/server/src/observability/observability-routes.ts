import type { FastifyInstance } from 'fastify';
import { metricsOf } from './gateway-metrics.ts';
import { PROMETHEUS_CONTENT_TYPE } from './metric-registry.ts';
import { metricsAccessOf } from './metrics-access.ts';
import { ReadinessChecker } from './readiness.ts';
import { installRequestMetrics } from './request-metrics.ts';

/**
 * GET /metrics (Prometheus text; access rules in metrics-access.ts), GET /healthz (the process
 * answers) and GET /readyz (databases, Redis, not shutting down), plus the app-wide request hooks
 * (counts, latencies, `X-Switchyard-Added-Ms`).
 *
 * Marked skip-override (what fastify-plugin does), so its hooks and routes belong to the root
 * instance: the hooks reach every route, including those registered before this plugin.
 */
export async function observabilityRoutes(app: FastifyInstance): Promise<void> {
  const metrics = metricsOf(app.services);
  installRequestMetrics(app, metrics);

  const readiness = new ReadinessChecker(app.services, (part, error) =>
    app.log.warn({ err: error, part }, 'readiness check failed'),
  );
  app.addHook('preClose', async () => readiness.markShuttingDown());
  app.addHook('onClose', async () => readiness.close());

  app.get('/healthz', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { status: 'ok' };
  });

  app.get('/readyz', async (_request, reply) => {
    const report = await readiness.check();
    reply.header('Cache-Control', 'no-store');
    return reply.code(report.ready ? 200 : 503).send({
      status: report.ready ? 'ok' : 'unavailable',
      checks: report.checks,
    });
  });

  app.get('/metrics', async (request, reply) => {
    const access = metricsAccessOf(request, app.services.config.metricsToken);
    if (access === 'unauthorized') {
      return reply
        .code(401)
        .header('WWW-Authenticate', 'Bearer realm="metrics"')
        .send({ success: false, message: 'metrics require a valid bearer token' });
    }
    if (access === 'hidden') return reply.code(404).send({ success: false, message: 'Not Found' });
    return reply.header('Cache-Control', 'no-store').type(PROMETHEUS_CONTENT_TYPE).send(metrics.render());
  });
}

// Hooks added here must reach routes outside this plugin (see the note above).
Object.defineProperty(observabilityRoutes, Symbol.for('skip-override'), { value: true });
