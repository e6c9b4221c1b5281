import { expect } from 'vitest';
import { type RelayFixture, settledLogs, userBalance } from '../relay/relay-support.ts';

/** Default prices of the models these tests use (billing/pricing/default-ratios.ts). */
export const PRICES = {
  'claude-3-5-sonnet-20241022': { ratio: 1.5, completion: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  // Same ratio set by the tests; claude- names complete at 5.
  'claude-3-5-sonnet-20241022-via-openai': { ratio: 1.5, completion: 5, cacheRead: 1, cacheWrite: 1.25 },
  'gemini-2.0-flash': { ratio: 0.05, completion: 4, cacheRead: 1, cacheWrite: 1 },
  'gpt-4o-mini': { ratio: 0.075, completion: 4, cacheRead: 0.5, cacheWrite: 1 },
} as const;

export type PricedModel = keyof typeof PRICES;

/** The quota the reference formula gives for a usage (group ratio 1). */
export function expectedQuota(
  model: PricedModel,
  usage: { prompt: number; completion: number; cacheRead?: number; cacheWrite?: number },
): number {
  const price = PRICES[model];
  const cacheRead = usage.cacheRead ?? 0;
  const cacheWrite = usage.cacheWrite ?? 0;
  const uncached = usage.prompt - cacheRead - cacheWrite;
  const weighted =
    uncached +
    cacheRead * price.cacheRead +
    cacheWrite * price.cacheWrite +
    usage.completion * price.completion;
  return Math.max(1, Math.round(weighted * price.ratio));
}

/**
 * Runs `call`, then checks the newest consume log row and the root user's balance: the row
 * carries `prompt`/`completion` tokens, its quota follows the formula, and the balance moved by
 * exactly that quota. Returns the log row.
 */
export async function expectBilled(
  f: RelayFixture,
  model: PricedModel,
  call: () => Promise<{ prompt: number; completion: number; cacheRead?: number; cacheWrite?: number }>,
  channelId: number,
) {
  await f.t.app.services.relay.drain();
  const before = await userBalance(f, 1);
  const usage = await call();
  const log = (await settledLogs(f)).at(-1)!;
  const quota = expectedQuota(model, usage);
  expect(log).toMatchObject({
    model_name: model,
    prompt_tokens: usage.prompt,
    completion_tokens: usage.completion,
    quota,
    channel_id: channelId,
  });
  const after = await userBalance(f, 1);
  expect(before.quota - after.quota).toBe(quota);
  expect(after.used_quota - before.used_quota).toBe(quota);
  return log;
}
