import type { FastifyInstance } from 'fastify';

/** Third-party sign-in and binding (OAuth state, GitHub, Linux-DO, WeChat, Telegram, e-mail bind). */
export async function oauthRoutes(_app: FastifyInstance): Promise<void> {}
