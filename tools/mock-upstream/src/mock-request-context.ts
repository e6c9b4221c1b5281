import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MockScenario } from './mock-scenario.ts';
import type { MockProtocol } from './protocol-errors.ts';

/** What a route handler receives: the parsed request and the scenario it selected. */
export interface MockRequestContext {
  readonly request: IncomingMessage;
  readonly response: ServerResponse;
  /** Path without the `/__mock/<spec>` prefix and without the query string. */
  readonly path: string;
  readonly query: URLSearchParams;
  /** The JSON body (an empty object when the request had none). */
  readonly body: Record<string, unknown>;
  /** The body bytes as received (multipart forms, form-encoded token requests). */
  readonly rawBody: Buffer;
  readonly scenario: MockScenario;
  /** The model named in the path (Gemini `models/{model}:method`, OpenAI `models/{id}`). */
  readonly pathModel: string | undefined;
  /** `http://host:port` as the client addressed the mock, for URLs in responses. */
  readonly origin: string;
}

/** A route handler; it owns the response from here on. */
export type MockRouteHandler = (context: MockRequestContext) => void | Promise<void>;

/** A resolved route: which protocol's auth and error shape apply, and who answers. */
export interface MockRoute {
  readonly protocol: MockProtocol;
  readonly handler: MockRouteHandler;
  /** False for routes that read no body (GET). */
  readonly readsBody: boolean;
  /** How the route authenticates; the protocol's own way when absent. */
  readonly auth?: MockAuthStyle;
  /** True for routes whose body is not JSON (multipart, form-encoded): the handler reads `rawBody`. */
  readonly rawBody?: boolean;
}

/**
 * Authentication styles beyond each protocol's own: `azure` (`api-key` header), `bearer`
 * (`Authorization: Bearer`), `google-oauth` (a Bearer access token the mock's `/token` endpoint
 * issued, for Vertex AI), `aws-sigv4` (an `AWS4-HMAC-SHA256`
 * authorization header, not verified), `none` (token endpoints).
 */
export type MockAuthStyle = 'azure' | 'bearer' | 'google-oauth' | 'aws-sigv4' | 'none';

let idCounter = 0;
const idTag = Date.now().toString(36);

/** A unique id with a provider-style prefix (`chatcmpl-`, `msg_`, `call_`...). */
export function nextId(prefix: string): string {
  idCounter++;
  return `${prefix}mock${idTag}${idCounter.toString(36)}`;
}

/** The current Unix time in seconds, as OpenAI's `created` fields carry it. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}
