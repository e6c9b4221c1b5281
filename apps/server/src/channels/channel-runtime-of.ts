import type { ChannelRuntime, ChannelSetting } from '@switchyard/relay-kit';
import type { IndexedChannel } from '../db/repositories/channel-repository.ts';

function parseObject(text: string | null | undefined): Record<string, unknown> | undefined {
  if (!text || text.trim() === '') return undefined;
  try {
    const value = JSON.parse(text) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

function stringMap(value: Record<string, unknown> | undefined): Record<string, string> | undefined {
  if (!value) return undefined;
  const result: Record<string, string> = {};
  for (const [key, entry] of Object.entries(value)) if (typeof entry === 'string') result[key] = entry;
  return result;
}

function settingOf(value: Record<string, unknown> | undefined): ChannelSetting | undefined {
  if (!value) return undefined;
  return {
    forceFormat: value.force_format === true,
    thinkingToContent: value.thinking_to_content === true,
    proxy: typeof value.proxy === 'string' ? value.proxy : undefined,
    systemPrompt: typeof value.system_prompt === 'string' ? value.system_prompt : undefined,
  };
}

/** Parses a channel row's JSON columns once, when the index is built, never per request. */
export function channelRuntimeOf(row: IndexedChannel): ChannelRuntime {
  return {
    id: row.id,
    type: row.type,
    key: row.key,
    baseUrl: row.base_url || undefined,
    other: row.other ?? undefined,
    organization: row.openai_organization ?? undefined,
    modelMapping: stringMap(parseObject(row.model_mapping)),
    paramOverride: parseObject(row.param_override),
    headerOverride: stringMap(parseObject(row.header_override)),
    setting: settingOf(parseObject(row.setting)),
  };
}

/** The channel's status-code mapping (`{"404":"500"}`): upstream status → status sent to clients. */
export function statusCodeMappingOf(row: IndexedChannel): Map<number, number> {
  const mapping = new Map<number, number>();
  const parsed = parseObject(row.status_code_mapping);
  if (!parsed) return mapping;
  for (const [from, to] of Object.entries(parsed)) {
    const source = Number(from);
    const target = Number(to);
    if (Number.isInteger(source) && Number.isInteger(target) && target >= 100 && target <= 599) {
      mapping.set(source, target);
    }
  }
  return mapping;
}
