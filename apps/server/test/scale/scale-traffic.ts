import type { Kysely } from 'kysely';
import type { Database } from '../../src/db/schema.ts';

/** The kinds of relay call the load mixes; each exercises another upstream or client fault. */
export type TrafficKind = 'json' | 'stream' | 'error' | 'timeout' | 'disconnect' | 'abort';

/** Ten-call cycle: 40% plain, 60% faults (upstream 5xx, silence, cut streams, clients leaving). */
export const TRAFFIC_CYCLE: readonly TrafficKind[] = [
  'json',
  'stream',
  'error',
  'json',
  'timeout',
  'stream',
  'disconnect',
  'abort',
  'disconnect',
  'abort',
];

const DIRECTIVES: Record<TrafficKind, string> = {
  json: '',
  stream: '',
  error: ' [[mock:error-500]]',
  timeout: ' [[mock:timeout]]',
  disconnect: ' [[mock:disconnect-after-2]]',
  abort: ' [[mock:chunks-30,slow-stream-15]]',
};

/** Sends one call of the kind to a node; returns the HTTP status (0 when the client gave up). */
export async function sendCall(
  baseUrl: string,
  key: string,
  kind: TrafficKind,
  index: number,
  model = 'gpt-4o-mini',
): Promise<number> {
  const stream = kind === 'stream' || kind === 'abort' || (kind === 'disconnect' && index % 4 !== 0);
  const controller = new AbortController();
  const response = await fetch(`${baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model,
      stream,
      max_tokens: 120,
      messages: [{ role: 'user', content: `call ${index} of the multi node load test${DIRECTIVES[kind]}` }],
    }),
    signal: controller.signal,
  });
  if (kind === 'abort' && response.body) {
    const reader = response.body.getReader();
    await reader.read();
    await reader.read();
    controller.abort();
    await reader.cancel().catch(() => undefined);
    return 0;
  }
  await response.arrayBuffer().catch(() => undefined);
  return response.status;
}

/** A user's and a token's balance columns and the user's consume-log totals. */
export async function ledger(db: Kysely<Database>, logDb: Kysely<Database>, userId: number, tokenId: number) {
  const user = await db
    .selectFrom('users')
    .select(['quota', 'used_quota', 'request_count'])
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  const token = await db
    .selectFrom('tokens')
    .select(['remain_quota', 'used_quota'])
    .where('id', '=', tokenId)
    .executeTakeFirstOrThrow();
  const logs = await logDb
    .selectFrom('logs')
    .select((eb) => [eb.fn.sum<number>('quota').as('quota'), eb.fn.countAll<number>().as('count')])
    .where('user_id', '=', userId)
    .where('type', '=', 2)
    .executeTakeFirstOrThrow();
  const channels = await db
    .selectFrom('channels')
    .select((eb) => eb.fn.sum<number>('used_quota').as('used'))
    .executeTakeFirstOrThrow();
  return {
    quota: Number(user.quota),
    usedQuota: Number(user.used_quota),
    requestCount: Number(user.request_count),
    tokenRemain: Number(token.remain_quota),
    tokenUsed: Number(token.used_quota),
    logQuota: Number(logs.quota ?? 0),
    logCount: Number(logs.count),
    channelUsed: Number(channels.used ?? 0),
  };
}

export type Ledger = Awaited<ReturnType<typeof ledger>>;
