import type { FastifyInstance } from 'fastify';

/** Channel operations: tests, balances, tags, batch actions (admin). */
export async function channelOperationRoutes(_app: FastifyInstance): Promise<void> {}
