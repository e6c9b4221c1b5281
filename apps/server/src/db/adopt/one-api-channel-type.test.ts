import { CHANNEL_TYPES } from '@switchyard/shared';
import { describe, expect, it } from 'vitest';
import { planChannelTypeRenumbering, switchyardTypeOfOneApi } from './one-api-channel-type.ts';

describe('switchyardTypeOfOneApi', () => {
  it('renumbers the providers one-api numbers differently', () => {
    expect(switchyardTypeOfOneApi(28)).toBe(42); // Mistral
    expect(switchyardTypeOfOneApi(36)).toBe(43); // DeepSeek, not Suno
    expect(switchyardTypeOfOneApi(37)).toBe(39); // Cloudflare
    expect(switchyardTypeOfOneApi(42)).toBe(41); // Vertex AI
    expect(switchyardTypeOfOneApi(30)).toBe(4); // Ollama
    expect(switchyardTypeOfOneApi(29)).toBe(58); // Groq
  });

  it('keeps the types numbered alike', () => {
    for (const type of [1, 3, 8, 14, 24, 31, 33]) expect(switchyardTypeOfOneApi(type)).toBe(type);
  });

  it('has no equivalent for providers Switchyard lacks or types it numbers for another provider', () => {
    for (const type of [0, 2, 4, 5, 26, 32, 34, 38, 46, 99]) expect(switchyardTypeOfOneApi(type)).toBeNull();
  });

  it('only ever answers a type the console offers', () => {
    const offered = new Set(CHANNEL_TYPES.map((type) => type.id));
    for (let type = 0; type <= 46; type++) {
      const mapped = switchyardTypeOfOneApi(type);
      if (mapped !== null) expect({ type, offered: offered.has(mapped) }).toEqual({ type, offered: true });
    }
  });

  it('plans which channels move and which are disabled, leaving alike numbers alone', () => {
    const plan = planChannelTypeRenumbering([
      { id: 9, type: 36 },
      { id: 1, type: 1 },
      { id: 4, type: 28 },
      { id: 6, type: 38 },
    ]);
    expect(plan).toEqual({ renumbered: [4, 9], disabled: [6] });
  });
});
