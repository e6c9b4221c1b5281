/**
 * The relay lane's router: method and path to a route, matched as Fastify's router matches the
 * same patterns with the app's options — case-sensitive, one trailing slash ignored, `:name` one
 * non-empty segment of at most 100 characters (decoded), `*` the rest of the path. A GET route
 * answers HEAD as well. Fixed paths are one map lookup; the few patterns are tried in order.
 */

/** Every method `all` covers (the methods Fastify routes). */
export const ALL_METHODS = [
  'GET',
  'HEAD',
  'TRACE',
  'DELETE',
  'OPTIONS',
  'PATCH',
  'PUT',
  'POST',
  'QUERY',
] as const;

/** Fastify's default `maxParamLength`: a longer parameter matches no route. */
const MAX_PARAM_LENGTH = 100;

interface Pattern<Route> {
  method: string;
  /** The fixed segments, with `:name` and `*` in place of what they match. */
  segments: string[];
  route: Route;
}

export interface RouterMatch<Route> {
  route: Route;
  params: Record<string, string>;
}

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

export class RelayRouter<Route> {
  /** Fixed paths per method, each with its match made once (no allocation per request). */
  private readonly fixed = new Map<string, Map<string, RouterMatch<Route>>>();
  private readonly patterns: Pattern<Route>[] = [];
  /** Every `METHOD path` as registered (the access matrix test reads them). */
  readonly keys: string[] = [];

  add(methods: readonly string[], path: string, route: Route): void {
    for (const method of methods) {
      this.keys.push(`${method} ${path}`);
      if (path.includes(':') || path.includes('*')) {
        this.patterns.push({ method, segments: path.split('/'), route });
      } else {
        let paths = this.fixed.get(method);
        if (paths === undefined) {
          paths = new Map();
          this.fixed.set(method, paths);
        }
        paths.set(path, { route, params: NO_PARAMS });
      }
    }
  }

  /** The route of a request, or null; a HEAD request takes its GET route. */
  find(method: string, path: string): RouterMatch<Route> | null {
    const found = this.findExact(method, path);
    return found === null && method === 'HEAD' ? this.findExact('GET', path) : found;
  }

  private findExact(method: string, path: string): RouterMatch<Route> | null {
    const fixed = this.fixed.get(method)?.get(path);
    if (fixed !== undefined) return fixed;
    if (this.patterns.length === 0) return null;
    const parts = path.split('/');
    for (const pattern of this.patterns) {
      if (pattern.method !== method) continue;
      const params = matchSegments(pattern.segments, parts);
      if (params !== null) return { route: pattern.route, params };
    }
    return null;
  }
}

function matchSegments(segments: string[], parts: string[]): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (let index = 0; index < segments.length; index += 1) {
    const segment = segments[index]!;
    if (segment === '*') {
      // The caller strips one trailing slash: `/a/` is `/a`, which `/a/*` does not match.
      if (index >= parts.length) return null;
      params['*'] = parts.slice(index).join('/');
      return params;
    }
    const part = parts[index];
    if (part === undefined) return null;
    if (segment.startsWith(':')) {
      if (part === '' || part.length > MAX_PARAM_LENGTH) return null;
      params[segment.slice(1)] = decodeParam(part);
    } else if (segment !== part) {
      return null;
    }
  }
  return segments.length === parts.length ? params : null;
}

function decodeParam(value: string): string {
  if (!value.includes('%')) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}
