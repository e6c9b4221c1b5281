import { describe, expect, it } from 'vitest';
import { ALL_METHODS, RelayRouter } from './relay-router.ts';

function router() {
  const routes = new RelayRouter<string>();
  routes.add(['POST'], '/v1/chat/completions', 'chat');
  routes.add(['POST'], '/v1/engines/:model/embeddings', 'engines');
  routes.add(['POST'], '/v1beta/models/*', 'gemini');
  routes.add(['GET'], '/v1/models', 'list');
  routes.add(['GET'], '/v1/models/:model', 'model');
  routes.add(ALL_METHODS, '/v1/files/*', 'files');
  return routes;
}

describe('RelayRouter', () => {
  it('matches fixed paths by method, and a GET route for HEAD', () => {
    const routes = router();
    expect(routes.find('POST', '/v1/chat/completions')?.route).toBe('chat');
    expect(routes.find('GET', '/v1/chat/completions')).toBeNull();
    expect(routes.find('HEAD', '/v1/models')?.route).toBe('list');
    expect(routes.find('POST', '/v1/Chat/completions')).toBeNull();
  });

  it('gives parameters decoded, one non-empty segment of at most 100 characters', () => {
    const routes = router();
    expect(routes.find('POST', '/v1/engines/text-embedding-3/embeddings')).toEqual({
      route: 'engines',
      params: { model: 'text-embedding-3' },
    });
    expect(routes.find('GET', '/v1/models/gpt%2D4o')?.params).toEqual({ model: 'gpt-4o' });
    expect(routes.find('GET', `/v1/models/${'m'.repeat(100)}`)?.route).toBe('model');
    expect(routes.find('GET', `/v1/models/${'m'.repeat(101)}`)).toBeNull();
    expect(routes.find('POST', '/v1/engines//embeddings')).toBeNull();
    expect(routes.find('GET', '/v1/models/a/b')).toBeNull();
  });

  it('matches a wildcard with at least one more segment, under every method of `all`', () => {
    const routes = router();
    expect(routes.find('POST', '/v1beta/models/gemini-2.0-flash:generateContent')?.params).toEqual({
      '*': 'gemini-2.0-flash:generateContent',
    });
    expect(routes.find('POST', '/v1beta/models')).toBeNull();
    for (const method of ALL_METHODS)
      expect(routes.find(method, '/v1/files/abc/content')?.route).toBe('files');
  });

  it('lists every registered method and path', () => {
    expect(router().keys).toContain('GET /v1/models/:model');
    expect(router().keys).toContain('QUERY /v1/files/*');
  });
});
