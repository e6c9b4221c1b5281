import type { FastifyInstance } from 'fastify';

/** Usage logs, statistics and dashboard data. */
export async function logRoutes(_app: FastifyInstance): Promise<void> {}
