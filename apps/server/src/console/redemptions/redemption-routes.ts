import type { FastifyInstance } from 'fastify';

/** Redemption codes (admin) and redeeming them (users). */
export async function redemptionRoutes(_app: FastifyInstance): Promise<void> {}
