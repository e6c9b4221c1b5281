/**
 * Scenarios make one mock serve many test cases: a request picks its behaviour (errors, delays,
 * broken streams, missing usage, cache hits) through a comma-separated spec such as
 * `error-500` or `slow-stream-20,chunks-50,no-usage`. See the README for the full list.
 */

/** The behaviour a request asked for; every field has a neutral default. */
export interface MockScenario {
  /** The spec text this scenario was parsed from (`''` for the default scenario). */
  readonly spec: string;
  /** Answer with this HTTP status and the protocol's error body instead of a result. */
  readonly errorStatus: number | undefined;
  /** Answer with the protocol's "quota exhausted / credit too low" error. */
  readonly quotaError: boolean;
  /** Answer 502 with an HTML body, as a reverse proxy in front of a provider does. */
  readonly htmlError: boolean;
  /** Omit usage entirely, in streams and in JSON bodies. */
  readonly noUsage: boolean;
  /** Wait this long before sending the success response's headers. */
  readonly slowFirstByteMs: number;
  /** Wait this long between stream events. */
  readonly slowStreamMs: number;
  /** Number of content chunks in the reply (the text is padded with words when needed). */
  readonly chunkCount: number | undefined;
  /** Destroy the socket after this many content chunks (no closing events, no `[DONE]`). */
  readonly disconnectAfter: number | undefined;
  /** Emit the protocol's in-stream error event after this many content chunks, then end. */
  readonly errorEventAfter: number | undefined;
  /** Accept the request and never answer until the client or the mock closes the socket. */
  readonly timeout: boolean;
  /** Emit one malformed `data:` line right after the first content chunk. */
  readonly badJsonEvent: boolean;
  /** Report this many cached (cache-read) prompt tokens. */
  readonly cachedTokens: number;
  /** Report this many cache-write prompt tokens (Anthropic `cache_creation_input_tokens`). */
  readonly cacheWriteTokens: number;
  /** Wait this long before doing anything else (errors included). */
  readonly latencyMs: number;
  /** Remaining balance in USD reported by the billing endpoints. */
  readonly balanceUsd: number | undefined;
}

/** Thrown for a spec with a token the mock does not know, so test typos fail loudly. */
export class MockScenarioError extends Error {
  override readonly name = 'MockScenarioError';
}

/** The scenario of a request that asked for nothing special. */
export const defaultScenario: MockScenario = Object.freeze({
  spec: '',
  errorStatus: undefined,
  quotaError: false,
  htmlError: false,
  noUsage: false,
  slowFirstByteMs: 0,
  slowStreamMs: 0,
  chunkCount: undefined,
  disconnectAfter: undefined,
  errorEventAfter: undefined,
  timeout: false,
  badJsonEvent: false,
  cachedTokens: 0,
  cacheWriteTokens: 0,
  latencyMs: 0,
  balanceUsd: undefined,
});

type Mutable<T> = { -readonly [Key in keyof T]: T[Key] };

const numberedToken = /^([a-z-]+?)-(\d+)$/;
const directivePattern = /\[\[mock:([^\]]*)\]\]/;
const directiveGlobalPattern = /\[\[mock:[^\]]*\]\]/g;
const parsedSpecs = new Map<string, MockScenario>();
const parsedSpecsLimit = 512;

/**
 * Parses a comma-separated spec. Results are cached, because benchmarks send the same spec
 * thousands of times. Throws {@link MockScenarioError} on an unknown or malformed token.
 */
export function parseScenario(spec: string): MockScenario {
  const cached = parsedSpecs.get(spec);
  if (cached) return cached;
  const scenario: Mutable<MockScenario> = { ...defaultScenario, spec: spec.trim() };
  for (const rawToken of spec.split(',')) {
    const token = rawToken.trim().toLowerCase();
    if (token !== '') applyToken(scenario, token);
  }
  const frozen = Object.freeze(scenario);
  if (parsedSpecs.size >= parsedSpecsLimit) parsedSpecs.clear();
  parsedSpecs.set(spec, frozen);
  return frozen;
}

function applyToken(scenario: Mutable<MockScenario>, token: string): void {
  switch (token) {
    case 'no-usage':
      scenario.noUsage = true;
      return;
    case 'timeout':
      scenario.timeout = true;
      return;
    case 'bad-json-event':
      scenario.badJsonEvent = true;
      return;
    case 'html-error':
      scenario.htmlError = true;
      return;
    case 'error-quota':
      scenario.quotaError = true;
      return;
  }
  const match = numberedToken.exec(token);
  if (!match) throw new MockScenarioError(`unknown mock scenario token "${token}"`);
  const value = Number(match[2]);
  switch (match[1]) {
    case 'error':
      if (value < 400 || value > 599) {
        throw new MockScenarioError(`mock scenario "${token}" needs a status between 400 and 599`);
      }
      scenario.errorStatus = value;
      return;
    case 'slow-first-byte':
      scenario.slowFirstByteMs = value;
      return;
    case 'slow-stream':
      scenario.slowStreamMs = value;
      return;
    case 'chunks':
      if (value < 1) throw new MockScenarioError('mock scenario "chunks-<n>" needs n >= 1');
      scenario.chunkCount = value;
      return;
    case 'disconnect-after':
      scenario.disconnectAfter = value;
      return;
    case 'error-event-after':
      scenario.errorEventAfter = value;
      return;
    case 'cached':
      scenario.cachedTokens = value;
      return;
    case 'cache-write':
      scenario.cacheWriteTokens = value;
      return;
    case 'latency':
      scenario.latencyMs = value;
      return;
    case 'balance':
      scenario.balanceUsd = value;
      return;
    default:
      throw new MockScenarioError(`unknown mock scenario token "${token}"`);
  }
}

/**
 * Picks the spec of a request: the `x-mock-scenario` header, else the `/__mock/<spec>/` path
 * prefix, else the first `[[mock:<spec>]]` directive in the raw body text. Only the first source
 * found is used; specs from different sources are not merged.
 */
export function findScenarioSpec(
  headerValue: string | string[] | undefined,
  pathSpec: string | undefined,
  bodyText: string,
): string | undefined {
  if (typeof headerValue === 'string' && headerValue !== '') return headerValue;
  if (Array.isArray(headerValue) && headerValue[0]) return headerValue[0];
  if (pathSpec !== undefined && pathSpec !== '') return pathSpec;
  if (bodyText.length > 0 && bodyText.includes('[[mock:')) return directivePattern.exec(bodyText)?.[1];
  return undefined;
}

/** Removes `[[mock:...]]` directives from user text before the mock echoes it back. */
export function stripScenarioDirectives(text: string): string {
  return text.includes('[[mock:') ? text.replace(directiveGlobalPattern, '').trim() : text.trim();
}
