import type { FastifyInstance } from 'fastify';

/** Drawing (Midjourney) and task (Suno) lists: /api/mj, /api/mj/self, /api/task, /api/task/self. */
export async function taskRoutes(_app: FastifyInstance): Promise<void> {}
