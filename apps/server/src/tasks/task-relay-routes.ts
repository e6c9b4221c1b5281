import type { FastifyInstance } from 'fastify';

/** Asynchronous task relay: /mj/* (Midjourney proxy) and /suno/* (Suno). */
export async function taskRelayRoutes(_app: FastifyInstance): Promise<void> {}
