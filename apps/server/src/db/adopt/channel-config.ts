import type { Kysely } from 'kysely';

/** one-api's per-channel `config` JSON, the fields Switchyard has a place for. */
interface OneApiChannelConfig {
  region?: unknown;
  ak?: unknown;
  sk?: unknown;
  api_version?: unknown;
}

const AZURE = 3;
const AWS = 33;

/** The channel types whose one-api `config` is translated (numbered alike in both products). */
export const configuredChannelTypes = [AZURE, AWS];

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

function parse(config: string): OneApiChannelConfig | null {
  try {
    const value = JSON.parse(config) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/**
 * The values a one-api channel's `config` puts in the columns Switchyard reads for its type, or
 * null when nothing changes. Azure: `api_version` is the API version (one-api prefers it to
 * `other`, where Switchyard reads it). AWS: `ak`, `sk` and `region` make the key
 * `AK|SK|region` Switchyard signs with (one-api read them from `config`, whatever the key held).
 */
export function translateChannelConfig(channel: {
  type: number;
  config: string | null;
  key: string;
  other: string | null;
}): { key?: string; other?: string } | null {
  const config = channel.config ? parse(channel.config) : null;
  if (!config) return null;
  if (channel.type === AZURE) {
    const version = text(config.api_version);
    return version !== '' && version !== channel.other ? { other: version } : null;
  }
  if (channel.type === AWS) {
    const [ak, sk, region] = [text(config.ak), text(config.sk), text(config.region)];
    if (ak === '' || sk === '' || region === '') return null;
    const key = `${ak}|${sk}|${region}`;
    return key !== channel.key ? { key } : null;
  }
  return null;
}

/**
 * Writes the translation of every Azure and AWS channel's `config` (the `config` column stays as
 * it is). Computed from `config` each time, so running it again changes nothing. Returns the ids
 * of the channels changed.
 */
export async function carryChannelConfigs(db: Kysely<unknown>): Promise<number[]> {
  const channels = db as unknown as Kysely<{
    channels: { id: number; type: number; config: string | null; key: string; other: string | null };
  }>;
  const rows = await channels
    .selectFrom('channels')
    .select(['id', 'type', 'config', 'key', 'other'])
    .where('type', 'in', configuredChannelTypes)
    .execute();
  const changed: number[] = [];
  for (const row of rows) {
    const changes = translateChannelConfig({ ...row, type: Number(row.type) });
    if (!changes) continue;
    await channels.updateTable('channels').set(changes).where('id', '=', row.id).execute();
    changed.push(Number(row.id));
  }
  return changed;
}
