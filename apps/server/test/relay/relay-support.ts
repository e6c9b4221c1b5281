import { type MockUpstream, startMockUpstream } from '@switchyard/mock-upstream';
import type { FastifyInstance } from 'fastify';
import { buildTestApp, type ConsoleClient, envelope, type TestApp, type TestAppOptions } from '../helper.ts';

/** An app listening on a real port, a mock upstream, and the root console client. */
export interface RelayFixture {
  t: TestApp;
  mock: MockUpstream;
  /** e.g. http://127.0.0.1:PORT */
  baseUrl: string;
  root: ConsoleClient;
  close(): Promise<void>;
}

export interface ChannelInput {
  name?: string;
  type?: number;
  key?: string;
  base_url?: string;
  models?: string;
  group?: string;
  priority?: number;
  weight?: number;
  model_mapping?: string;
  status_code_mapping?: string;
}

/** Starts everything a relay test needs. `env` overrides the test app's environment. */
export async function startRelayFixture(
  env: Record<string, string> = {},
  options: TestAppOptions & { beforeListen?: (app: FastifyInstance) => void } = {},
): Promise<RelayFixture> {
  const mock = await startMockUpstream();
  const t = await buildTestApp(env, options);
  options.beforeListen?.(t.app);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const address = t.app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const root = await t.login('root', '123456');
  return {
    t,
    mock,
    baseUrl: `http://127.0.0.1:${port}`,
    root,
    close: async () => {
      await t.close();
      await mock.close();
    },
  };
}

/** Creates a channel through the console API and returns its id. */
export async function createChannel(fixture: RelayFixture, input: ChannelInput = {}): Promise<number> {
  const body = {
    name: input.name ?? 'mock',
    type: input.type ?? 1,
    key: input.key ?? 'sk-mock-upstream',
    base_url: input.base_url ?? fixture.mock.url,
    models: input.models ?? 'gpt-4o-mini,gpt-4o,text-embedding-3-small',
    group: input.group ?? 'default',
    priority: input.priority ?? 0,
    weight: input.weight ?? 0,
    model_mapping: input.model_mapping ?? '',
    status_code_mapping: input.status_code_mapping ?? '',
  };
  const reply = envelope(await fixture.root.post('/api/channel/', body));
  if (!reply.success) throw new Error(`channel creation failed: ${reply.message}`);
  return reply.data[0].id;
}

/** Creates a token for the client's user and returns its full `sk-` key and id. */
export async function createToken(
  client: ConsoleClient,
  input: Record<string, unknown> = {},
): Promise<{ key: string; id: number }> {
  const reply = envelope(
    await client.post('/api/token/', {
      name: 'relay test',
      remain_quota: 0,
      unlimited_quota: true,
      expired_time: -1,
      ...input,
    }),
  );
  if (!reply.success) throw new Error(`token creation failed: ${reply.message}`);
  return { key: reply.data[0].key, id: reply.data[0].id };
}

/** Sets an option as root. */
export async function setOption(fixture: RelayFixture, key: string, value: string): Promise<void> {
  const reply = envelope(await fixture.root.put('/api/option/', { key, value }));
  if (!reply.success) throw new Error(`option ${key}: ${reply.message}`);
}

/**
 * Waits until the answered calls have settled and their rows are written. A JSON answer settles on
 * the server's 'close' of the response, which can come just after the client has read the body:
 * so first wait (up to 2 s) for every open reservation to close, then drain.
 */
async function settleAnsweredCalls(fixture: RelayFixture): Promise<void> {
  await fixture.t.app.services.relay.billing.whenIdle(2_000);
  await fixture.t.app.services.relay.drain();
}

/** Waits for settlements and queued log rows, then returns the consume logs. */
export async function settledLogs(fixture: RelayFixture) {
  await settleAnsweredCalls(fixture);
  return fixture.t.app.services.logDatabase.db
    .selectFrom('logs')
    .selectAll()
    .where('type', '=', 2)
    .orderBy('id')
    .execute();
}

/**
 * Reads a user's balance columns, after the settlement writer's pending batch (used quota and
 * request counts are written in batches, balances at settlement).
 */
export async function userBalance(fixture: RelayFixture, userId: number) {
  await settleAnsweredCalls(fixture);
  return fixture.t.app.services.database.db
    .selectFrom('users')
    .select(['quota', 'used_quota', 'request_count'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}

/** A raw relay reply: status, headers, body text and the parsed JSON body (when it is JSON). */
export interface RawReply {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read reply bodies loosely, field by field.
  json: any;
}

/** Sends a relay request with plain fetch (`key` null sends no Authorization header). */
export async function relayPost(
  fixture: RelayFixture,
  key: string | null,
  body: unknown,
  options: { path?: string; headers?: Record<string, string> } = {},
): Promise<RawReply> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...options.headers };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  const response = await fetch(`${fixture.baseUrl}${options.path ?? '/v1/chat/completions'}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** A minimal chat request body. */
export function chatBody(model: string, content: string, extra: Record<string, unknown> = {}) {
  return { model, messages: [{ role: 'user', content }], ...extra };
}

/**
 * Asserts a relay error in the OpenAI shape `{"error":{"message","type","param","code"}}` with the
 * status, a message ending in ` (request id: …)`, and no stack trace; returns the error object.
 */
export function expectOpenAIError(reply: RawReply, status: number, message?: string | RegExp) {
  if (reply.status !== status)
    throw new Error(`expected status ${status}, got ${reply.status}: ${reply.text}`);
  const error = reply.json?.error;
  if (!error || typeof error.message !== 'string') throw new Error(`not an OpenAI error body: ${reply.text}`);
  for (const field of ['type', 'param', 'code']) {
    if (!(field in error)) throw new Error(`error body lacks "${field}": ${reply.text}`);
  }
  if (!/ \(request id: [^)]+\)$/.test(error.message)) throw new Error(`no request id: ${error.message}`);
  if (/\n\s+at /.test(reply.text)) throw new Error(`stack trace in body: ${reply.text}`);
  const text = error.message.replace(/ \(request id: [^)]+\)$/, '');
  if (typeof message === 'string' && !text.includes(message)) {
    throw new Error(`expected message containing "${message}", got "${text}"`);
  }
  if (message instanceof RegExp && !message.test(text)) {
    throw new Error(`expected message matching ${message}, got "${text}"`);
  }
  return error as { message: string; type: string; param: unknown; code: unknown };
}

/** Creates a common user with a quota through the admin API and logs in as it. */
export async function createCommonUser(
  fixture: RelayFixture,
  username: string,
  quota: number,
): Promise<{ id: number; client: ConsoleClient }> {
  const created = envelope(await fixture.root.post('/api/user/', { username, password: 'password123' }));
  if (!created.success) throw new Error(`user creation failed: ${created.message}`);
  const client = await fixture.t.login(username, 'password123');
  const id = client.userId!;
  const updated = envelope(await fixture.root.put('/api/user/', { id, quota }));
  if (!updated.success) throw new Error(`quota update failed: ${updated.message}`);
  return { id, client };
}

/** Changes a channel through PUT /api/channel/ (partial update). */
export async function updateChannel(fixture: RelayFixture, id: number, changes: Record<string, unknown>) {
  const reply = envelope(await fixture.root.put('/api/channel/', { id, ...changes }));
  if (!reply.success) throw new Error(`channel update failed: ${reply.message}`);
}

/** Deletes channels through the console API. */
export async function deleteChannels(fixture: RelayFixture, ids: Iterable<number>) {
  for (const id of ids) {
    const reply = envelope(await fixture.root.delete(`/api/channel/${id}`));
    if (!reply.success) throw new Error(`channel deletion failed: ${reply.message}`);
  }
}

/** Reads a token row (after the pending settlement batch: used quota, accessed time). */
export async function tokenRow(fixture: RelayFixture, id: number) {
  await fixture.t.app.services.relay.drain();
  return fixture.t.app.services.database.db
    .selectFrom('tokens')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** Reads a channel's used quota (after the pending settlement batch). */
export async function channelUsedQuota(fixture: RelayFixture, id: number): Promise<number> {
  await fixture.t.app.services.relay.drain();
  const row = await fixture.t.app.services.database.db
    .selectFrom('channels')
    .select('used_quota')
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return Number(row.used_quota);
}

/** Polls `read` until `accept` holds (or fails after `timeoutMs`); for effects written off the response path. */
export async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 3000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    if (Date.now() > deadline)
      throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
