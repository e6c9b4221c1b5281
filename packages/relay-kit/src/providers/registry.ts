import type { ProviderAdapter } from '../spec/provider-adapter.js';
import { createOpenAIFamilyAdapter, openAIAdapter } from './openai/openai-adapter.js';
import { DEEPSEEK_CONFIG } from './openai-compatible/openai-compatible-providers.js';

/**
 * The only registration point: channel type → adapter factory. Adding a provider is one line
 * here (plus its folder or its `openai-compatible` entry, and its row in the shared channel types
 * table used by the console). Adapters are stateless and cheap, so every factory runs once when
 * this module loads and the instances are shared; nothing here changes afterwards.
 */
const ADAPTER_FACTORIES: ReadonlyArray<readonly [channelType: number, create: () => ProviderAdapter]> = [
  [1, () => openAIAdapter],
  [43, () => createOpenAIFamilyAdapter(DEEPSEEK_CONFIG)],
];

const ADAPTERS: ReadonlyMap<number, ProviderAdapter> = new Map(
  ADAPTER_FACTORIES.map(([channelType, create]) => {
    const adapter = create();
    if (adapter.channelType !== channelType) {
      throw new Error(
        `adapter ${adapter.name} is registered as type ${channelType} but serves ${adapter.channelType}`,
      );
    }
    return [channelType, adapter] as const;
  }),
);

/**
 * The adapter for a channel type, or `undefined` when the type is not supported yet (the server
 * should refuse to route to such channels rather than guess a wire format).
 */
export function getProviderAdapter(channelType: number): ProviderAdapter | undefined {
  return ADAPTERS.get(channelType);
}

/** True when {@link getProviderAdapter} has an adapter for the type. */
export function isSupportedChannelType(channelType: number): boolean {
  return ADAPTERS.has(channelType);
}

/** The channel types with a registered adapter, ascending. */
export function listSupportedChannelTypes(): number[] {
  return [...ADAPTERS.keys()].sort((a, b) => a - b);
}
