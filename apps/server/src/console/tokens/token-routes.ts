import type { FastifyInstance } from 'fastify';

/** Token management for the logged-in user. */
export async function tokenRoutes(_app: FastifyInstance): Promise<void> {}
