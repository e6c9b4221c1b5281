import { createServer, type Server, type Socket, connect as tcpConnect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope } from '../helper.ts';
import {
  chatBody,
  createToken,
  eventually,
  expectOpenAIError,
  type RelayFixture,
  relayPost,
  setOption,
  startRelayFixture,
} from '../relay/relay-support.ts';

/** Upstream concurrency caps, per-channel timeouts and client aborts reaching the upstream. */

async function addChannel(
  f: RelayFixture,
  input: { name: string; key: string; setting?: object; priority?: number; baseUrl?: string },
): Promise<number> {
  const reply = envelope(
    await f.root.post('/api/channel/', {
      name: input.name,
      type: 1,
      key: input.key,
      base_url: input.baseUrl ?? f.mock.url,
      models: 'gpt-4o-mini',
      group: 'default',
      priority: input.priority ?? 0,
      setting: input.setting ? JSON.stringify(input.setting) : '',
    }),
  );
  if (!reply.success) throw new Error(`channel creation failed: ${reply.message}`);
  return reply.data[0].id;
}

const limitsOf = (f: RelayFixture) => f.t.app.services.relay.upstream.limits;
const requestsWithKey = (f: RelayFixture, key: string) =>
  f.mock.requests.filter((request) => request.headers.authorization === `Bearer ${key}`).length;

describe('channel concurrency cap', () => {
  let f: RelayFixture;
  let key: string;
  beforeAll(async () => {
    f = await startRelayFixture();
    await setOption(f, 'RetryTimes', '0');
    await addChannel(f, { name: 'capped', key: 'sk-capped', setting: { max_concurrency: 2 } });
    key = (await createToken(f.root)).key;
  });
  afterAll(async () => f.close());

  it('answers 429 at once beyond the cap instead of queueing, and frees the slots afterwards', async () => {
    f.mock.clearRequests();
    const replies = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        relayPost(f, key, chatBody('gpt-4o-mini', `slow ${i} [[mock:slow-first-byte-1500]]`)),
      ),
    );
    const statuses = replies.map((reply) => reply.status).sort();
    expect(statuses).toEqual([200, 200, 429, 429, 429]);
    for (const reply of replies.filter((r) => r.status === 429)) {
      expect(expectOpenAIError(reply, 429, '负载已饱和').code).toBe('channel_concurrency_limited');
    }
    // The refused calls never reached the upstream: nothing waited in a queue.
    expect(requestsWithKey(f, 'sk-capped')).toBe(2);
    await eventually(
      async () => limitsOf(f).inFlight,
      (n) => n === 0,
    );
    expect((await relayPost(f, key, chatBody('gpt-4o-mini', 'after'))).status).toBe(200);
  });

  it('skips a full channel for another one without using a retry', async () => {
    await addChannel(f, { name: 'spare', key: 'sk-spare', priority: -1 });
    f.mock.clearRequests();
    const replies = await Promise.all(
      Array.from({ length: 4 }, (_, i) =>
        relayPost(f, key, chatBody('gpt-4o-mini', `spill ${i} [[mock:slow-first-byte-1000]]`)),
      ),
    );
    expect(replies.map((reply) => reply.status)).toEqual([200, 200, 200, 200]);
    expect(requestsWithKey(f, 'sk-capped')).toBe(2);
    expect(requestsWithKey(f, 'sk-spare')).toBe(2);
  });
});

describe('node concurrency cap (RELAY_MAX_CONCURRENCY)', () => {
  let f: RelayFixture;
  let key: string;
  beforeAll(async () => {
    f = await startRelayFixture({ RELAY_MAX_CONCURRENCY: '2' });
    await addChannel(f, { name: 'open', key: 'sk-open' });
    key = (await createToken(f.root)).key;
  });
  afterAll(async () => f.close());

  it('answers 503 at once when the node is full, streams included, and refunds the refused calls', async () => {
    const replies = await Promise.all([
      relayPost(f, key, chatBody('gpt-4o-mini', 'a [[mock:slow-stream-300,chunks-4]]', { stream: true })),
      relayPost(f, key, chatBody('gpt-4o-mini', 'b [[mock:slow-first-byte-1500]]')),
      relayPost(f, key, chatBody('gpt-4o-mini', 'c [[mock:slow-first-byte-1500]]')),
      relayPost(f, key, chatBody('gpt-4o-mini', 'd [[mock:slow-first-byte-1500]]')),
    ]);
    expect(replies.map((reply) => reply.status).sort()).toEqual([200, 200, 503, 503]);
    for (const reply of replies.filter((r) => r.status === 503)) {
      expect(expectOpenAIError(reply, 503, '并发已达上限').code).toBe('relay_concurrency_limited');
    }
    await f.t.app.services.relay.drain();
    expect(limitsOf(f).inFlight).toBe(0);
    const logs = await f.t.app.services.logDatabase.db
      .selectFrom('logs')
      .select(['quota'])
      .where('type', '=', 2)
      .execute();
    expect(logs).toHaveLength(2);
  });
});

/** A TCP relay in front of the mock that counts the connections the gateway keeps open to it. */
async function connectionCounter(
  target: number,
): Promise<{ port: number; open: () => number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = tcpConnect(target, '127.0.0.1');
    sockets.add(client);
    const end = () => {
      sockets.delete(client);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    open: () => sockets.size,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe('per-channel timeouts and client aborts', () => {
  let f: RelayFixture;
  let key: string;
  let counter: Awaited<ReturnType<typeof connectionCounter>>;
  beforeAll(async () => {
    f = await startRelayFixture();
    counter = await connectionCounter(f.mock.port);
    await addChannel(f, {
      name: 'impatient',
      key: 'sk-impatient',
      setting: { first_byte_timeout: 0.4, idle_timeout: 0.4 },
    });
    key = (await createToken(f.root)).key;
  });
  afterAll(async () => {
    await f.close();
    await counter.close();
  });

  it("gives up on a silent upstream after the channel's first-byte timeout (504)", async () => {
    const reply = await relayPost(f, key, chatBody('gpt-4o-mini', 'hang [[mock:timeout]]'));
    expectOpenAIError(reply, 504);
    // A slower-than-default answer within the channel's limit is fine.
    expect((await relayPost(f, key, chatBody('gpt-4o-mini', 'ok [[mock:slow-first-byte-100]]'))).status).toBe(
      200,
    );
  });

  it("cuts a stream that stays silent longer than the channel's idle timeout", async () => {
    const reply = await relayPost(
      f,
      key,
      chatBody('gpt-4o-mini', 'idle [[mock:slow-stream-1500,chunks-3]]', { stream: true }),
    );
    expect(reply.status).toBe(200);
    expect(reply.text).toContain('upstream stream interrupted');
    expect(reply.text).not.toContain('[DONE]');
    expect(limitsOf(f).inFlight).toBe(0);
  });

  it('closes the upstream connection when the client goes away', async () => {
    const id = await addChannel(f, {
      name: 'counted',
      key: 'sk-counted',
      priority: 5,
      baseUrl: `http://127.0.0.1:${counter.port}`,
    });
    f.mock.clearRequests();
    const controller = new AbortController();
    const pending = fetch(`${f.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(chatBody('gpt-4o-mini', 'never answered [[mock:timeout]]')),
      signal: controller.signal,
    }).catch((error: Error) => error);
    await eventually(
      async () => requestsWithKey(f, 'sk-counted'),
      (n) => n === 1,
    );
    expect(counter.open()).toBe(1);
    expect(limitsOf(f).inFlightOf(id)).toBe(1);
    controller.abort();
    expect(await pending).toBeInstanceOf(Error);
    await eventually(
      async () => counter.open(),
      (n) => n === 0,
    );
    expect(limitsOf(f).inFlight).toBe(0);
    expect(limitsOf(f).inFlightOf(id)).toBe(0);
  });
});
