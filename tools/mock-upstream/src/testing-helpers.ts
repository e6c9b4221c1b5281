import { afterAll, beforeAll } from 'vitest';
import { type MockUpstream, startMockUpstream } from './mock-upstream-server.ts';

/** Starts one mock on a free port for the calling test file and closes it afterwards. */
export function useMockUpstream(): { readonly current: MockUpstream } {
  const holder: { current: MockUpstream } = { current: undefined as unknown as MockUpstream };
  beforeAll(async () => {
    holder.current = await startMockUpstream({ port: 0 });
  });
  afterAll(async () => {
    await holder.current.close();
  });
  return holder;
}

/** Headers of an authenticated OpenAI-style JSON request. */
export const openAiHeaders = Object.freeze({
  authorization: 'Bearer sk-test',
  'content-type': 'application/json',
});
/** Headers of an authenticated Anthropic request. */
export const anthropicHeaders = Object.freeze({
  'x-api-key': 'sk-ant-test',
  'anthropic-version': '2023-06-01',
  'content-type': 'application/json',
});
/** Headers of an authenticated Gemini request. */
export const geminiHeaders = Object.freeze({
  'x-goog-api-key': 'gemini-test',
  'content-type': 'application/json',
});

/** Response bodies in assertions are indexed freely, so tests read them loosely typed. */
// biome-ignore lint/suspicious/noExplicitAny: test assertions index into arbitrary JSON bodies
export type LooseJson = any;

/** A fetch `Response` whose `json()` is loosely typed for assertions. */
export type TestResponse = Omit<Response, 'json'> & { json(): Promise<LooseJson> };

/** `fetch` with a loosely typed `json()`. */
export function testFetch(url: string, init?: RequestInit): Promise<TestResponse> {
  return fetch(url, init);
}

/** POSTs JSON to the mock and returns the response. */
export function postJson(
  mock: MockUpstream,
  path: string,
  body: unknown,
  headers: Record<string, string> = openAiHeaders,
): Promise<TestResponse> {
  return testFetch(`${mock.url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
}
