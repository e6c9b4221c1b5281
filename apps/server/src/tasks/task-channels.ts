import { selectChannel } from '../channels/select-channel.ts';
import type { ChannelRepository, IndexedChannel } from '../db/repositories/channel-repository.ts';
import { splitCommaList } from '../db/repositories/channel-repository.ts';
import type { ChangeBus } from '../lib/change-bus.ts';

/** Channel types of the task platforms: 2 Midjourney proxy, 5 Midjourney proxy plus, 36 Suno. */
export const MIDJOURNEY_CHANNEL_TYPES: readonly number[] = [2, 5];
export const SUNO_CHANNEL_TYPE = 36;

/** An enabled task-platform channel as the task relay routes to it. */
export interface TaskChannel {
  id: number;
  name: string;
  type: number;
  key: string;
  /** Base URL without a trailing slash. */
  baseUrl: string;
  priority: number;
  weight: number;
  autoBan: boolean;
  groups: readonly string[];
  models: readonly string[];
}

function toTaskChannel(row: IndexedChannel): TaskChannel {
  return {
    id: row.id,
    name: row.name,
    type: row.type,
    key: row.key,
    baseUrl: (row.base_url ?? '').replace(/\/+$/, ''),
    priority: Number(row.priority),
    weight: Number(row.weight),
    autoBan: row.auto_ban === 1,
    groups: splitCommaList(row.group),
    models: splitCommaList(row.models),
  };
}

/**
 * The enabled channels of the task platforms (relay-kit's index leaves these types out). Read
 * from the database when first needed, dropped on every `channels` change and after
 * SYNC_FREQUENCY, so a console change applies to the next task call.
 */
export class TaskChannelIndex {
  private loaded: Promise<Map<number, TaskChannel>> | null = null;
  private loadedAt = 0;

  constructor(
    private readonly channels: Pick<ChannelRepository, 'listEnabledForIndex'>,
    bus: ChangeBus,
    private readonly maxAgeMs: number,
  ) {
    bus.subscribe((topic) => {
      if (topic === 'channels') this.loaded = null;
    });
  }

  private snapshot(): Promise<Map<number, TaskChannel>> {
    if (!this.loaded || Date.now() - this.loadedAt > this.maxAgeMs) {
      this.loadedAt = Date.now();
      const loading = this.channels.listEnabledForIndex().then((rows) => {
        const byId = new Map<number, TaskChannel>();
        for (const row of rows) {
          if (MIDJOURNEY_CHANNEL_TYPES.includes(row.type) || row.type === SUNO_CHANNEL_TYPE) {
            byId.set(row.id, toTaskChannel(row));
          }
        }
        return byId;
      });
      loading.catch(() => {
        if (this.loaded === loading) this.loaded = null;
      });
      this.loaded = loading;
    }
    return this.loaded;
  }

  /** An enabled channel of one of the types, by id. */
  async get(id: number, types: readonly number[]): Promise<TaskChannel | undefined> {
    const channel = (await this.snapshot()).get(id);
    return channel && types.includes(channel.type) ? channel : undefined;
  }

  /** Picks a channel of the types serving the model in the group (priority tier, then weight). */
  async select(
    group: string,
    model: string,
    types: readonly number[],
    excluded: ReadonlySet<number> = new Set(),
    random: () => number = Math.random,
  ): Promise<TaskChannel | undefined> {
    const candidates = [...(await this.snapshot()).values()].filter(
      (channel) =>
        types.includes(channel.type) && channel.groups.includes(group) && channel.models.includes(model),
    );
    return selectChannel(candidates, excluded, random);
  }
}
