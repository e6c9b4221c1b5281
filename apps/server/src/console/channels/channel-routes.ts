import type { FastifyInstance } from 'fastify';

/** Channel management (admin). */
export async function channelRoutes(_app: FastifyInstance): Promise<void> {}
