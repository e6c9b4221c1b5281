import { type MockUpstream, startMockUpstream } from '@switchyard/mock-upstream';
import { buildTestApp, type ConsoleClient, envelope, type TestApp } from '../helper.ts';

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
export async function startRelayFixture(env: Record<string, string> = {}): Promise<RelayFixture> {
  const mock = await startMockUpstream();
  const t = await buildTestApp(env);
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

/** Waits for settlements and queued log rows, then returns the consume logs. */
export async function settledLogs(fixture: RelayFixture) {
  await fixture.t.app.services.relay.drain();
  return fixture.t.app.services.logDatabase.db
    .selectFrom('logs')
    .selectAll()
    .where('type', '=', 2)
    .orderBy('id')
    .execute();
}

/** Reads a user's balance columns. */
export async function userBalance(fixture: RelayFixture, userId: number) {
  return fixture.t.app.services.database.db
    .selectFrom('users')
    .select(['quota', 'used_quota', 'request_count'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
}
