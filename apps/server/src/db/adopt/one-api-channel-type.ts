import type { Kysely } from 'kysely';

/**
 * one-api v0.6.9 numbers its channel types in its own order (relay/channeltype); Switchyard uses
 * new-api's numbers. The two agree up to 25 except where one-api has a relay Switchyard lacks,
 * and differ from 26 up. This table gives, for each one-api type, the Switchyard type of the same
 * provider, or null when Switchyard has none (the channel is then disabled on adoption).
 */
const oneApiToSwitchyard: Readonly<Record<number, number | null>> = {
  0: null, // Unknown
  1: 1, // OpenAI
  2: null, // API2D (Switchyard's 2 is Midjourney Proxy)
  3: 3, // Azure OpenAI
  4: null, // CloseAI (Switchyard's 4 is Ollama)
  5: null, // OpenAI-SB (Switchyard's 5 is Midjourney Proxy Plus)
  6: 6, // OpenAIMax
  7: 7, // OhMyGPT
  8: 8, // Custom
  9: 9, // AILS
  10: null, // AI Proxy
  11: null, // PaLM
  12: 12, // API2GPT
  13: 13, // AIGC2D
  14: 14, // Anthropic
  15: 15, // Baidu
  16: null, // Zhipu (the old API)
  17: 17, // Ali
  18: 18, // Xunfei
  19: 19, // 360
  20: 20, // OpenRouter
  21: 21, // AI Proxy library
  22: 22, // FastGPT
  23: 23, // Tencent
  24: 24, // Gemini
  25: 25, // Moonshot
  26: null, // Baichuan
  27: 35, // MiniMax
  28: 42, // Mistral
  29: 58, // Groq
  30: 4, // Ollama
  31: 31, // 01.AI (LingYiWanWu)
  32: null, // StepFun
  33: 33, // AWS Claude
  34: null, // Coze
  35: 34, // Cohere
  36: 43, // DeepSeek
  37: 39, // Cloudflare
  38: null, // DeepL
  39: null, // Together AI
  40: 45, // Doubao (Volcengine Ark)
  41: null, // Novita
  42: 41, // Vertex AI
  43: null, // Proxy
  44: 40, // SiliconFlow
  45: 48, // xAI
  46: null, // Dummy
};

/** The Switchyard channel type of a one-api channel type, or null when Switchyard has no equivalent. */
export function switchyardTypeOfOneApi(oneApiType: number): number | null {
  return oneApiToSwitchyard[oneApiType] ?? null;
}

/** What adoption does to one-api's channel types: renumbered channel ids and disabled ones. */
export interface ChannelTypeRenumbering {
  renumbered: number[];
  disabled: number[];
}

/**
 * Which of these one-api channels get Switchyard's number for their type and which are disabled
 * (no equivalent); a channel whose number is the same in both is in neither list. The adoption
 * step and the check both read it from here.
 */
export function planChannelTypeRenumbering(
  channels: ReadonlyArray<{ id: number; type: number }>,
): ChannelTypeRenumbering {
  const result: ChannelTypeRenumbering = { renumbered: [], disabled: [] };
  for (const { id, type } of channels) {
    const mapped = switchyardTypeOfOneApi(type);
    if (mapped === null) result.disabled.push(id);
    else if (mapped !== type) result.renumbered.push(id);
  }
  result.renumbered.sort((a, b) => a - b);
  result.disabled.sort((a, b) => a - b);
  return result;
}

const MANUALLY_DISABLED = 2;

/**
 * Records each one-api channel's type in `one_api_type` and rewrites `type` to Switchyard's
 * number; a channel whose type has no equivalent keeps it and is disabled by hand (status 2), its
 * abilities too, as a console disable does (so its models leave the pricing list).
 * Only rows whose `one_api_type` is still NULL are touched, each in the statement that sets it,
 * so running it again (after an interrupted adoption) changes nothing already done.
 */
export async function renumberOneApiChannelTypes(db: Kysely<unknown>): Promise<ChannelTypeRenumbering> {
  const channels = db as unknown as Kysely<{
    channels: { id: number; type: number; status: number; one_api_type: number | null };
    abilities: { channel_id: number; enabled: number };
  }>;
  return channels.transaction().execute(async (trx) => {
    const rows = (
      await trx.selectFrom('channels').select(['id', 'type']).where('one_api_type', 'is', null).execute()
    ).map((row) => ({ id: Number(row.id), type: Number(row.type) }));
    for (const type of new Set(rows.map((row) => row.type))) {
      const mapped = switchyardTypeOfOneApi(type);
      const changes =
        mapped === null
          ? { one_api_type: type, status: MANUALLY_DISABLED }
          : { one_api_type: type, type: mapped };
      await trx
        .updateTable('channels')
        .set(changes)
        .where('type', '=', type)
        .where('one_api_type', 'is', null)
        .execute();
    }
    const plan = planChannelTypeRenumbering(rows);
    if (plan.disabled.length > 0) {
      await trx
        .updateTable('abilities')
        .set({ enabled: 0 })
        .where('channel_id', 'in', plan.disabled)
        .execute();
    }
    return plan;
  });
}
