import type { FastifyInstance } from 'fastify';

/** The public pricing list. */
export async function pricingRoutes(_app: FastifyInstance): Promise<void> {}
