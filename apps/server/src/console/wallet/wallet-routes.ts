import type { FastifyInstance } from 'fastify';

/** Online top-up (Epay) and its payment callback. */
export async function walletRoutes(_app: FastifyInstance): Promise<void> {}
