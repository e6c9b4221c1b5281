import { describe, expect, it } from 'vitest';
import { isObservabilityPath, metricFamilyOf } from './request-metrics.ts';

describe('isObservabilityPath', () => {
  it('matches the three endpoints with or without a query string, and nothing else', () => {
    for (const url of ['/metrics', '/healthz', '/readyz', '/readyz?verbose=1', '/metrics?']) {
      expect(isObservabilityPath(url)).toBe(true);
    }
    for (const url of [
      '/v1/chat/completions',
      '/metricsx',
      '/api/metrics',
      '',
      '?/metrics',
      '/v1/models?x=/healthz',
    ]) {
      expect(isObservabilityPath(url)).toBe(false);
    }
  });

  it('labels the endpoints internal and everything else by its route family', () => {
    expect(metricFamilyOf('/healthz?probe=1')).toBe('internal');
    expect(metricFamilyOf('/v1/chat/completions')).not.toBe('internal');
  });
});
