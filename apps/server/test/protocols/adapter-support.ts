import { countWords } from '@switchyard/mock-upstream';
import { expect } from 'vitest';
import { envelope } from '../helper.ts';
import { type RelayFixture, settledLogs, userBalance } from '../relay/relay-support.ts';

/**
 * Default prices (billing/pricing/default-ratios.ts, completion-ratio.ts) of the models the adapter
 * tests use: model ratio, completion ratio, cache-read ratio, cache-write ratio.
 */
export const ADAPTER_PRICES = {
  'gpt-4o-mini': { ratio: 0.075, completion: 4, cacheRead: 0.5, cacheWrite: 1 },
  'gpt-3.5-turbo': { ratio: 0.25, completion: 3, cacheRead: 1, cacheWrite: 1 },
  'deepseek-chat': { ratio: 0.14, completion: 1.5, cacheRead: 0.1, cacheWrite: 1 },
  'claude-3-5-sonnet-20241022': { ratio: 1.5, completion: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  'claude-3-5-haiku-20241022': { ratio: 0.4, completion: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  'gemini-2.0-flash': { ratio: 0.05, completion: 4, cacheRead: 1, cacheWrite: 1 },
} as const;

export type AdapterModel = keyof typeof ADAPTER_PRICES;

/** Token counts a call reports (or the mock's formula predicts). */
export interface CallUsage {
  prompt: number;
  completion: number;
  cacheRead?: number;
  cacheWrite?: number;
}

/** The quota the reference formula gives for `usage` (group ratio 1). */
export function quotaFor(model: AdapterModel, usage: CallUsage): number {
  const price = ADAPTER_PRICES[model];
  const cacheRead = usage.cacheRead ?? 0;
  const cacheWrite = usage.cacheWrite ?? 0;
  const weighted =
    usage.prompt -
    cacheRead -
    cacheWrite +
    cacheRead * price.cacheRead +
    cacheWrite * price.cacheWrite +
    usage.completion * price.completion;
  return Math.max(1, Math.round(weighted * price.ratio));
}

/**
 * Runs `call` (which returns the usage to expect), then checks the newest consume log row — model,
 * channel, tokens, quota by the formula — and that the root user's balance moved by that quota.
 */
export async function expectCharged(
  f: RelayFixture,
  model: AdapterModel,
  channelId: number,
  call: () => Promise<CallUsage>,
) {
  // Earlier calls settle after their responses: let them finish before reading the balance.
  await f.t.app.services.relay.drain();
  const before = await userBalance(f, 1);
  const usage = await call();
  const log = (await settledLogs(f)).at(-1)!;
  const quota = quotaFor(model, usage);
  expect(log).toMatchObject({
    model_name: model,
    channel_id: channelId,
    prompt_tokens: usage.prompt,
    completion_tokens: usage.completion,
    quota,
  });
  const after = await userBalance(f, 1);
  expect(before.quota - after.quota).toBe(quota);
  return log;
}

/** The mock's prompt count of plain one-string-per-message chat messages: words + 3 each. */
export function mockPromptTokens(...texts: string[]): number {
  return texts.reduce((sum, text) => sum + countWords(text) + 3, 0);
}

/** The mock's completion count of a reply text: its words. */
export const mockCompletionTokens = (text: string): number => countWords(text);

/** Drains an OpenAI SDK chat stream: the joined text and whether a usage chunk arrived. */
export async function readChatStream(
  stream: AsyncIterable<{ choices: { delta?: { content?: string | null } }[]; usage?: unknown }>,
) {
  let text = '';
  let usage: unknown;
  for await (const chunk of stream) {
    text += chunk.choices[0]?.delta?.content ?? '';
    if (chunk.usage) usage = chunk.usage;
  }
  return { text, usage };
}

/** Creates a channel with any console fields (`other`, `header_override`...) and returns its id. */
export async function createAdapterChannel(f: RelayFixture, input: Record<string, unknown>): Promise<number> {
  const body = {
    name: `type-${String(input.type)}`,
    key: 'sk-mock-upstream',
    base_url: f.mock.url,
    group: 'default',
    priority: 0,
    weight: 0,
    model_mapping: '',
    status_code_mapping: '',
    ...input,
  };
  const reply = envelope(await f.root.post('/api/channel/', body));
  if (!reply.success) throw new Error(`channel creation failed: ${reply.message}`);
  return reply.data[0].id;
}
