import { describe, expect, it } from 'vitest';
import {
  defaultScenario,
  findScenarioSpec,
  MockScenarioError,
  parseScenario,
  stripScenarioDirectives,
} from './mock-scenario.ts';

describe('parseScenario', () => {
  it('parses every token kind', () => {
    const scenario = parseScenario(
      'error-503, no-usage,slow-first-byte-10,slow-stream-5,chunks-7,disconnect-after-3,timeout,bad-json-event,cached-12,cache-write-4,latency-9,html-error,error-quota,error-event-after-2,balance-42',
    );
    expect(scenario).toMatchObject({
      errorStatus: 503,
      noUsage: true,
      slowFirstByteMs: 10,
      slowStreamMs: 5,
      chunkCount: 7,
      disconnectAfter: 3,
      timeout: true,
      badJsonEvent: true,
      cachedTokens: 12,
      cacheWriteTokens: 4,
      latencyMs: 9,
      htmlError: true,
      quotaError: true,
      errorEventAfter: 2,
      balanceUsd: 42,
    });
  });

  it('returns the default scenario values for an empty spec and caches parses', () => {
    expect(parseScenario('')).toMatchObject({ ...defaultScenario, spec: '' });
    expect(parseScenario('no-usage')).toBe(parseScenario('no-usage'));
  });

  it('rejects unknown tokens and out-of-range statuses loudly', () => {
    expect(() => parseScenario('eror-500')).toThrow(MockScenarioError);
    expect(() => parseScenario('error-200')).toThrow(/between 400 and 599/);
    expect(() => parseScenario('chunks-0')).toThrow(MockScenarioError);
  });
});

describe('findScenarioSpec', () => {
  it('prefers the header, then the path prefix, then the body directive', () => {
    const body = '{"messages":[{"content":"hi [[mock:error-400]]"}]}';
    expect(findScenarioSpec('error-500', 'error-429', body)).toBe('error-500');
    expect(findScenarioSpec(undefined, 'error-429', body)).toBe('error-429');
    expect(findScenarioSpec(undefined, undefined, body)).toBe('error-400');
    expect(findScenarioSpec(undefined, undefined, '{"a":1}')).toBeUndefined();
  });
});

describe('stripScenarioDirectives', () => {
  it('removes directives from echoed text', () => {
    expect(stripScenarioDirectives('[[mock:cached-5]] What is 2+2?')).toBe('What is 2+2?');
    expect(stripScenarioDirectives(' plain ')).toBe('plain');
  });
});
