import type * as FastifyModule from 'fastify';

/** One registered route: method and URL exactly as registered (prefix included). */
export interface RegisteredRoute {
  method: string;
  url: string;
  /** `METHOD url`, the key of the expectation tables. */
  key: string;
}

const registered: RegisteredRoute[] = [];

/**
 * Wraps the `fastify` factory so every instance records its routes through an `onRoute` hook
 * added before any plugin registers one, and, once ready, the relay routes its relay lane serves
 * (the app's front door for relay calls, before Fastify's router). Use from a test file:
 * `vi.mock('fastify', async (original) => wrapFastify(await original()))`.
 */
export function wrapFastify(actual: typeof FastifyModule): typeof FastifyModule {
  const factory = ((options?: FastifyModule.FastifyServerOptions) => {
    const app = actual.default(options);
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        registered.push({ method, url: route.url, key: `${method} ${route.url}` });
      }
    });
    app.addHook('onReady', async () => {
      const lane = (app as { relayLane?: { routeKeys(): string[] } }).relayLane;
      for (const key of lane?.routeKeys() ?? []) {
        const space = key.indexOf(' ');
        registered.push({ method: key.slice(0, space), url: key.slice(space + 1), key });
      }
    });
    return app;
  }) as unknown as typeof actual.default;
  return { ...actual, default: factory, fastify: factory } as typeof FastifyModule;
}

/** The routes registered so far (by every app the test built), without duplicates. */
export function registeredRoutes(): RegisteredRoute[] {
  const seen = new Map<string, RegisteredRoute>();
  for (const route of registered) seen.set(route.key, route);
  return [...seen.values()];
}

/** A concrete URL for a route pattern: `:id` → `idValue`, `:mode` and `:action` → valid words, others and `*` → a word. */
export function concreteUrl(url: string, idValue = '999999'): string {
  return url
    .replace(/:id\b/g, idValue)
    .replace(/:mode\b/g, 'mj-fast')
    .replace(/:action\b/g, 'music')
    .replace(/:[a-zA-Z_]+/g, 'matrix-model')
    .replace(/\*/g, 'matrix');
}
