import { type MockUpstream, startMockUpstream } from '@switchyard/mock-upstream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleClient, envelope } from '../helper.ts';
import { eventually } from '../relay/relay-support.ts';
import { createTestDatabase, type TestDatabase, testDatabaseKind } from '../support/test-database.ts';
import {
  type GatewayNode,
  rootClient,
  runPool,
  scaleRedis,
  startChildNode,
  startNode,
} from './scale-support.ts';
import { type Ledger, ledger, sendCall, TRAFFIC_CYCLE, type TrafficKind } from './scale-traffic.ts';

/**
 * Two gateway nodes on one database under mixed concurrent load with upstream faults (5xx,
 * silence, cut streams) and clients leaving mid-stream. PostgreSQL and MariaDB runs share Redis
 * (exact cross-node rate limits, change notifications within a second); the SQLite run has no
 * Redis and a second process on the same file, and proves the database alone keeps the money
 * right (model limits are then per process, as SQLite deployments run one process, and caches
 * follow SYNC_FREQUENCY). PostgreSQL and MariaDB also run two nodes without Redis, whose model
 * request limits stay exact through the database (ADR-19).
 */
const kind = testDatabaseKind;
const withRedis = kind !== 'sqlite';
/**
 * Enough calls to keep both nodes busy with dozens in flight on each row a settlement touches;
 * more add test time, not interleavings. Both nodes, the mock upstream and the clients share one
 * event loop: at 2,000 calls 100 at a time on a loaded host, that loop stalled past the good
 * channel's timeout and healthy calls ended in 504.
 */
const PLAN = {
  postgres: { calls: 800, concurrency: 80 },
  mysql: { calls: 800, concurrency: 80 },
  sqlite: { calls: 400, concurrency: 40 },
}[kind];
const PAYERS = 4;
/** Without Redis, other nodes see changes at the next reload: make that quick. */
const SYNC_FREQUENCY = withRedis ? '60' : '1';
/**
 * The good channel's first-byte and idle timeouts (seconds). Two processes writing one SQLite file
 * wait for each other's locks synchronously (better-sqlite3's busy timeout blocks the event loop),
 * so a healthy upstream can look silent for a moment there: give it more room. On PostgreSQL and
 * MySQL both nodes, the mock and the client share this worker's event loop, with another test
 * worker on the second core: 1 s of silence was sometimes just a busy loop, and on a machine 2.5
 * times slower 2 s was too (a retried 5xx call ended in 504).
 */
const CHANNEL_TIMEOUT = kind === 'sqlite' ? 5 : 4;

/** Console helpers on an in-process node, as root: users with a session, their tokens, options. */
function consoleOf(root: () => ConsoleClient, app: () => FastifyInstance) {
  const user = async (username: string, quota: number) => {
    expect(envelope(await root().post('/api/user/', { username, password: 'password123' })).success).toBe(
      true,
    );
    const found = envelope(await root().get(`/api/user/search?keyword=${username}`)).data.items[0];
    expect(envelope(await root().put('/api/user/', { id: found.id, quota })).success).toBe(true);
    const login = await app().inject({
      method: 'POST',
      url: '/api/user/login',
      payload: { username, password: 'password123' },
    });
    const cookie = String(login.headers['set-cookie']).split(';')[0]!;
    const client = new (root().constructor as typeof ConsoleClient)(app(), cookie, found.id);
    return { id: found.id as number, client };
  };
  const token = async (client: ConsoleClient, input: Record<string, unknown>) => {
    const reply = envelope(
      await client.post('/api/token/', { name: 'load', expired_time: -1, remain_quota: 0, ...input }),
    );
    expect(reply.success).toBe(true);
    return { key: reply.data[0].key as string, id: reply.data[0].id as number };
  };
  const setOption = async (key: string, value: string) => {
    expect(envelope(await root().put('/api/option/', { key, value })).success).toBe(true);
  };
  return { user, token, setOption };
}

describe(`two nodes on ${kind}${withRedis ? ' + Redis' : ' without Redis'}`, () => {
  let mock: MockUpstream;
  let database: TestDatabase;
  let a: GatewayNode;
  let b: GatewayNode;
  let root: ConsoleClient;
  const nodes = () => [a, b];
  const db = () => a.app!.services.database.db;
  const logDb = () => a.app!.services.logDatabase.db;

  const { user, token, setOption } = consoleOf(
    () => root,
    () => a.app!,
  );

  beforeAll(async () => {
    mock = await startMockUpstream({ recordLimit: 0 });
    database = await createTestDatabase();
    const env: Record<string, string> = { SYNC_FREQUENCY };
    if (withRedis) env.REDIS_CONN_STRING = await scaleRedis(kind);
    a = await startNode('A', database.target, { ...env, NODE_TYPE: 'master' });
    root = await rootClient(a.app!);
    await setOption('RetryTimes', '1');
    // Same priority: half the calls try the failing channel first and retry on the good one.
    // The good one gives up on silence after CHANNEL_TIMEOUT (its own first-byte and idle timeouts).
    for (const channel of [
      {
        name: 'good',
        base_url: mock.url,
        setting: JSON.stringify({ first_byte_timeout: CHANNEL_TIMEOUT, idle_timeout: CHANNEL_TIMEOUT }),
      },
      { name: 'failing', base_url: `${mock.url}/__mock/error-500`, setting: '' },
    ]) {
      const reply = envelope(
        await root.post('/api/channel/', {
          ...channel,
          type: 1,
          key: 'sk-mock',
          models: 'gpt-4o-mini',
          group: 'default',
        }),
      );
      expect(reply.success).toBe(true);
    }
    b =
      kind === 'sqlite'
        ? await startChildNode('B', { ...env, NODE_TYPE: 'slave', SQLITE_PATH: database.target.location })
        : await startNode('B', database.target, { ...env, NODE_TYPE: 'slave' });
  }, 90_000);

  afterAll(async () => {
    for (const node of [b, a]) await node?.close();
    await mock?.close();
    await database?.drop();
  });

  it(`keeps every balance exact through ${PLAN.calls} mixed calls across both nodes`, async () => {
    // A few payers, each reached through both nodes (one payer alone would serialise every
    // call on its user and token rows and only measure lock waits).
    const payers: Array<{
      payer: { id: number; client: ConsoleClient };
      payerToken: { key: string; id: number };
      start: Ledger;
    }> = [];
    for (let p = 0; p < PAYERS; p++) {
      const payer = await user(`payer${p}`, 60_000_000);
      const payerToken = await token(payer.client, { unlimited_quota: false, remain_quota: 40_000_000 });
      payers.push({ payer, payerToken, start: await ledger(db(), logDb(), payer.id, payerToken.id) });
    }
    const kinds: TrafficKind[] = [];
    const statuses = await runPool(PLAN.calls, PLAN.concurrency, (index) => {
      const callKind = TRAFFIC_CYCLE[index % TRAFFIC_CYCLE.length]!;
      kinds[index] = callKind;
      const { payerToken } = payers[Math.floor(index / 2) % PAYERS]!;
      return sendCall(nodes()[index % 2]!.url, payerToken.key, callKind, index).catch(() => -1);
    });
    const byKind = (wanted: TrafficKind) => statuses.filter((_, index) => kinds[index] === wanted);
    // Plain calls always succeed (a failing first channel is retried on the good one).
    expect(byKind('json').filter((status) => status !== 200)).toEqual([]);
    expect(byKind('stream').filter((status) => status !== 200)).toEqual([]);
    // Upstream 5xx and silence end in an error once both channels were tried.
    expect(byKind('error').filter((status) => status !== 500)).toEqual([]);
    expect(byKind('timeout').filter((status) => status !== 500 && status !== 504)).toEqual([]);
    expect(statuses.filter((status) => status === -1)).toHaveLength(0);

    for (const node of nodes()) await node.quiesce();
    let usedByAll = 0;
    let logsByAll = 0;
    let channelUsed = { start: 0, end: 0 };
    for (const { payer, payerToken, start } of payers) {
      const end = await eventually(
        () => ledger(db(), logDb(), payer.id, payerToken.id),
        (now) => now.logCount - start.logCount === now.requestCount - start.requestCount,
        10_000,
      );
      const used = end.usedQuota - start.usedQuota;
      expect(used).toBeGreaterThan(0);
      expect(end.logQuota - start.logQuota).toBe(used);
      expect(end.tokenUsed - start.tokenUsed).toBe(used);
      expect(start.quota - end.quota).toBe(used);
      expect(start.tokenRemain - end.tokenRemain).toBe(used);
      expect(end.quota).toBeGreaterThanOrEqual(0);
      usedByAll += used;
      logsByAll += end.logCount - start.logCount;
      channelUsed = { start: channelUsed.start || start.channelUsed, end: end.channelUsed };
    }
    expect(channelUsed.end - channelUsed.start).toBe(usedByAll);
    // Every plain call is billed; calls that failed before a byte reached the client are not.
    const plain = byKind('json').length + byKind('stream').length;
    expect(logsByAll).toBeGreaterThanOrEqual(plain);
    expect(logsByAll).toBeLessThanOrEqual(PLAN.calls - byKind('error').length);
    if (kind === 'sqlite') {
      // The child node was stopped to settle its calls; bring a fresh one up for the next checks.
      b = await startChildNode('B', {
        SYNC_FREQUENCY,
        NODE_TYPE: 'slave',
        SQLITE_PATH: database.target.location,
      });
    }
  }, 180_000);

  it('never lets a small balance go negative, whichever node the calls reach', async () => {
    // Each call reserves about 40 quota; 300 covers only a few of the 60 calls.
    const small = await user('small', 300);
    const smallToken = await token(small.client, { unlimited_quota: true });
    const start = await ledger(db(), logDb(), small.id, smallToken.id);
    const statuses = await runPool(60, 60, (index) =>
      sendCall(nodes()[index % 2]!.url, smallToken.key, 'json', index),
    );
    expect(statuses.filter((status) => status === 403).length).toBeGreaterThan(0);
    await a.quiesce();
    if (b.app) await b.quiesce();
    const end = await eventually(
      () => ledger(db(), logDb(), small.id, smallToken.id),
      (now) => now.logCount === statuses.filter((status) => status === 200).length,
      10_000,
    );
    expect(end.quota).toBeGreaterThanOrEqual(0);
    const used = end.usedQuota - start.usedQuota;
    expect(start.quota - end.quota).toBe(used);
    expect(end.logQuota - start.logQuota).toBe(used);
    expect(end.tokenUsed - start.tokenUsed).toBe(used);
  }, 60_000);

  it(withRedis
    ? 'admits exactly N calls per minute across both nodes (ModelRequestRateLimitCount)'
    : 'admits exactly N calls per minute on each process sharing a SQLite file (memory limits: one process owns the file)', async () => {
    const limited = await user('limited', 10_000_000);
    const limitedToken = await token(limited.client, { unlimited_quota: true });
    const N = 20;
    await setOption('ModelRequestRateLimitCount', String(N));
    await setOption('ModelRequestRateLimitDurationMinutes', '1');
    await setOption('ModelRequestRateLimitEnabled', 'true');
    if (b.app) {
      await eventually(
        async () => b.app!.services.options.getBoolean('ModelRequestRateLimitEnabled'),
        (enabled) => enabled,
        withRedis ? 1000 : 3000,
      );
    } else {
      await new Promise((done) => setTimeout(done, 2500)); // two SYNC_FREQUENCY reloads
    }
    const calls = 3 * N;
    const statuses = await runPool(calls, calls, (index) =>
      sendCall(nodes()[index % 2]!.url, limitedToken.key, 'json', index),
    );
    await setOption('ModelRequestRateLimitEnabled', 'false');
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    const admitted = (node: number) =>
      statuses.filter((status, index) => index % 2 === node && status === 200).length;
    if (withRedis) {
      expect(admitted(0) + admitted(1)).toBe(N);
      expect(statuses.filter((status) => status === 429)).toHaveLength(calls - N);
    } else {
      expect([admitted(0), admitted(1)]).toEqual([N, N]);
    }
  }, 60_000);

  it(`makes node B refuse a token disabled on node A ${withRedis ? 'within a second' : 'after SYNC_FREQUENCY'}`, async () => {
    const owner = await user('switcher', 10_000_000);
    const switched = await token(owner.client, { unlimited_quota: true });
    // Node B has the token in its cache.
    for (let i = 0; i < 3; i++) expect(await sendCall(b.url, switched.key, 'json', i)).toBe(200);
    const reply = envelope(
      await owner.client.put('/api/token/?status_only=true', { id: switched.id, status: 2 }),
    );
    expect(reply.success).toBe(true);
    const refused = await eventually(
      () => sendCall(b.url, switched.key, 'json', 99),
      (status) => status === 401,
      withRedis ? 1000 : 3000,
    );
    expect(refused).toBe(401);
    expect(await sendCall(a.url, switched.key, 'json', 100)).toBe(401);
  }, 30_000);

  it(`brings a disabled channel and a banned user from node A to node B ${withRedis ? 'within a second' : 'after SYNC_FREQUENCY'}`, async () => {
    const limit = withRedis ? 1000 : 3000;
    const created = envelope(
      await root.post('/api/channel/', {
        name: 'solo',
        type: 1,
        key: 'sk-mock',
        base_url: mock.url,
        models: 'gpt-4o',
        group: 'default',
      }),
    );
    expect(created.success).toBe(true);
    const channelId = created.data[0].id as number;
    const banned = await user('banned', 10_000_000);
    const bannedToken = await token(banned.client, { unlimited_quota: true });
    // Node B learns about the new channel and caches the user.
    await eventually(
      () => sendCall(b.url, bannedToken.key, 'json', 1, 'gpt-4o'),
      (status) => status === 200,
      limit,
    );
    expect(envelope(await root.put('/api/channel/', { id: channelId, status: 2 })).success).toBe(true);
    await eventually(
      () => sendCall(b.url, bannedToken.key, 'json', 2, 'gpt-4o'),
      (status) => status === 503,
      limit,
    );
    expect(await sendCall(b.url, bannedToken.key, 'json', 3)).toBe(200);
    expect(envelope(await root.post('/api/user/manage', { id: banned.id, action: 'disable' })).success).toBe(
      true,
    );
    await eventually(
      () => sendCall(b.url, bannedToken.key, 'json', 4),
      (status) => status === 403,
      limit,
    );
  }, 30_000);
});

/**
 * Without Redis on PostgreSQL and MariaDB, ModelRequestRateLimit is counted in the database
 * (`rate_limit_keys` / `rate_limit_hits`): a limit of N admits N calls in total across the nodes,
 * and a failed call gives its success slot back to both. SQLite deployments run one process
 * (memory limits), covered above.
 */
if (kind !== 'sqlite') {
  describe(`two nodes on ${kind} without Redis: model request limits through the database`, () => {
    let mock: MockUpstream;
    let database: TestDatabase;
    let a: GatewayNode;
    let b: GatewayNode;
    let root: ConsoleClient;
    const nodes = () => [a, b];
    const { user, token, setOption } = consoleOf(
      () => root,
      () => a.app!,
    );
    const hitsOf = async (key: string) => {
      const row = await a
        .app!.services.database.db.selectFrom('rate_limit_hits')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('key', '=', key)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    };
    const limitOptions = async (values: Record<string, string>) => {
      for (const [key, value] of Object.entries(values)) await setOption(key, value);
      await eventually(
        async () => Object.keys(values).map((key) => b.app!.services.options.get(key)),
        (seen) => seen.every((value, index) => value === Object.values(values)[index]),
        3000,
      );
    };

    beforeAll(async () => {
      mock = await startMockUpstream({ recordLimit: 0 });
      database = await createTestDatabase();
      a = await startNode('A', database.target, { SYNC_FREQUENCY: '1', NODE_TYPE: 'master' });
      root = await rootClient(a.app!);
      const reply = envelope(
        await root.post('/api/channel/', {
          name: 'good',
          type: 1,
          key: 'sk-mock',
          base_url: mock.url,
          models: 'gpt-4o-mini',
          group: 'default',
        }),
      );
      expect(reply.success).toBe(true);
      b = await startNode('B', database.target, { SYNC_FREQUENCY: '1', NODE_TYPE: 'slave' });
    }, 60_000);

    afterAll(async () => {
      for (const node of [b, a]) await node?.close();
      await mock?.close();
      await database?.drop();
    });

    it('admits exactly N calls per minute across both nodes (ModelRequestRateLimitCount)', async () => {
      const limited = await user('limited', 10_000_000);
      const limitedToken = await token(limited.client, { unlimited_quota: true });
      const N = 20;
      await limitOptions({
        ModelRequestRateLimitCount: String(N),
        ModelRequestRateLimitDurationMinutes: '1',
        ModelRequestRateLimitEnabled: 'true',
      });
      const calls = 3 * N;
      const statuses = await runPool(calls, calls, (index) =>
        sendCall(nodes()[index % 2]!.url, limitedToken.key, 'json', index),
      );
      expect(statuses.filter((status) => status === 200)).toHaveLength(N);
      expect(statuses.filter((status) => status === 429)).toHaveLength(calls - N);
      // Both nodes admitted some and refused some: one count, not one per node.
      for (const node of [0, 1]) {
        const own = statuses.filter((_, index) => index % 2 === node);
        expect(own.some((status) => status === 200) && own.some((status) => status === 429)).toBe(true);
      }
      expect(await hitsOf(`MRRL:${limited.id}`)).toBe(N);
      await limitOptions({ ModelRequestRateLimitEnabled: 'false' });
    }, 60_000);

    it('admits exactly S successful calls across both nodes; failed calls give their slot back', async () => {
      const limited = await user('successes', 10_000_000);
      const limitedToken = await token(limited.client, { unlimited_quota: true });
      const S = 10;
      await limitOptions({
        ModelRequestRateLimitCount: '0',
        ModelRequestRateLimitSuccessCount: String(S),
        ModelRequestRateLimitDurationMinutes: '1',
        ModelRequestRateLimitEnabled: 'true',
      });
      // A burst where every third call fails upstream (500): at most S succeed.
      const burst = await runPool(3 * S, 3 * S, (index) =>
        sendCall(nodes()[index % 2]!.url, limitedToken.key, index % 3 === 0 ? 'error' : 'json', index),
      );
      expect(burst.every((status) => status === 200 || status === 429 || status === 500)).toBe(true);
      const succeeded = burst.filter((status) => status === 200).length;
      expect(succeeded).toBeLessThanOrEqual(S);
      expect(burst.filter((status) => status === 500).length).toBeGreaterThan(0);
      // Failed calls released their slots (asynchronously, when their replies closed).
      const key = `MRRLS:${limited.id}`;
      await eventually(
        () => hitsOf(key),
        (count) => count === succeeded,
        3000,
      );
      // The remaining slots are open on either node, and then both refuse.
      const more: number[] = [];
      for (let index = 0; index < S - succeeded + 4; index++) {
        more.push(await sendCall(nodes()[index % 2]!.url, limitedToken.key, 'json', 100 + index));
      }
      expect(more).toEqual([
        ...Array.from({ length: S - succeeded }, () => 200),
        ...Array.from({ length: 4 }, () => 429),
      ]);
      expect(await hitsOf(key)).toBe(S);
      await limitOptions({ ModelRequestRateLimitEnabled: 'false' });
    }, 60_000);
  });
}
