import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { expectOk } from '../console/console-support.ts';
import { ConsoleClient, type TestApp } from '../helper.ts';

/** Every cookie a reply sets, as name=value pairs (cleared ones included, with an empty value). */
export function cookiesOf(response: LightMyRequestResponse): Record<string, string> {
  const header = response.headers['set-cookie'];
  const all = Array.isArray(header) ? header : header ? [String(header)] : [];
  const cookies: Record<string, string> = {};
  for (const line of all) {
    const pair = line.split(';')[0]!;
    const eq = pair.indexOf('=');
    cookies[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return cookies;
}

/** A client carrying the given cookie as well as the client's own. */
export function withCookie(t: TestApp, client: ConsoleClient, cookie: string): ConsoleClient {
  return new ConsoleClient(t.app, [client.cookie, cookie].filter(Boolean).join('; '), client.userId);
}

/** Asks for an OAuth state as `client`; returns it and a client that also carries the state cookie. */
export async function beginOAuth(t: TestApp, client: ConsoleClient, aff?: string) {
  const response = await client.get(`/api/oauth/state${aff === undefined ? '' : `?aff=${aff}`}`);
  const state = expectOk(response) as string;
  const cookie = cookiesOf(response).oauth_state;
  expect(cookie, 'oauth_state cookie').toBeTruthy();
  return { state, browser: withCookie(t, client, `oauth_state=${cookie}`) };
}

/** The signed-in client a successful third-party login answer makes. */
export function signedIn(t: TestApp, response: LightMyRequestResponse): ConsoleClient {
  const data = expectOk(response);
  const session = cookiesOf(response).session;
  expect(session, 'session cookie').toBeTruthy();
  return new ConsoleClient(t.app, `session=${session}`, data.id);
}
