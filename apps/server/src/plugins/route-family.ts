/** Which wire shape errors take on a path. */
export type RouteFamily = 'api' | 'openai' | 'claude' | 'gemini' | 'web';

/** Classifies a request URL; relay codecs own the non-API shapes. */
export function routeFamilyOf(url: string): RouteFamily {
  if (url.startsWith('/api/') || url === '/api') return 'api';
  if (url.startsWith('/v1/messages')) return 'claude';
  if (url.startsWith('/v1beta/')) return 'gemini';
  if (url.startsWith('/v1/') || url.startsWith('/pg/') || url === '/v1' || url.startsWith('/dashboard/')) {
    return 'openai';
  }
  // Task relay: /mj/..., /mj-fast/mj/... (mode prefix), /suno/...
  if (/^\/(?:[\w-]+\/)?mj\//.test(url) || url.startsWith('/suno/')) return 'openai';
  return 'web';
}
