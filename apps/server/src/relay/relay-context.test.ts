import { openAIChatCodec } from '@switchyard/relay-kit';
import { shareOneFastShape } from '@switchyard/relay-kit/testing';
import { describe, expect, it } from 'vitest';
import type { Reservation } from '../billing/ledger/billing-service.ts';
import type { Price } from '../billing/pricing/price-book.ts';
import { createRelayContext, type RelayCaller, type RelayContextStart } from './relay-context.ts';

const call = (content: string) =>
  openAIChatCodec.parseRequest({
    rawBody: Buffer.from(JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content }] })),
    path: '/v1/chat/completions',
    query: new URLSearchParams(),
    headers: { 'content-type': 'application/json' },
  });

function start(id: number, promptEstimate: () => number): RelayContextStart {
  const caller = {
    user: { id, username: `user${id}`, role: 1, status: 1, group: 'default', deleted: false, setting: '' },
    token: null,
    group: 'default',
    pinnedChannelId: null,
  } satisfies RelayCaller;
  return {
    requestId: `request-${id}`,
    clientIp: '127.0.0.1',
    codec: openAIChatCodec,
    caller,
    call: call(`hello ${id}`),
    price: { model: 'gpt-4o-mini', modelPrice: null, modelRatio: 0.075 } as Price,
    promptEstimate,
    reservation: { payer: { userId: id, tokenId: 0, tokenUnlimited: true }, amount: 10 * id } as Reservation,
    isPlayground: false,
  };
}

describe('createRelayContext', () => {
  it('starts every call with no attempts, no upstream wait and its own abort', () => {
    const first = createRelayContext(start(1, () => 7));
    const second = createRelayContext(start(2, () => 9));
    expect(first.attempts).toEqual([]);
    expect(first.upstreamWaitMs).toBe(0);
    expect(first.abort.aborted).toBe(false);
    first.abort.abort();
    expect(second.abort.aborted).toBe(false);
    expect(first.attempts).not.toBe(second.attempts);
    expect([first.promptEstimate(), second.promptEstimate()]).toEqual([7, 9]);
    expect(first.reservation.amount).toBe(10);
  });

  it('gives every call the same fast hidden class, whatever its prompt counter closes over', () => {
    // A getter in the literal (the old `get promptEstimate()`) made each context a dictionary object
    // and kept whole requests alive through young-generation collections.
    const contexts = [1, 2, 3].map((id) => {
      let counted: number | undefined;
      return createRelayContext(
        start(id, () => {
          counted ??= id * 3;
          return counted;
        }),
      );
    });
    expect(shareOneFastShape(...contexts)).toBe(true);
  });
});
