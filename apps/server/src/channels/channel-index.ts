import type { ChannelRuntime } from '@switchyard/relay-kit';
import { isSupportedChannelType } from '@switchyard/relay-kit';
import { type IndexedChannel, splitCommaList } from '../db/repositories/channel-repository.ts';
import { channelRuntimeOf, statusCodeMappingOf } from './channel-runtime-of.ts';
import { type ChannelUpstreamLimits, channelUpstreamLimitsOf } from './channel-upstream-limits.ts';
import type { RoutableChannel } from './select-channel.ts';

/** One enabled channel as the relay routes to it. */
export interface RouteTarget extends RoutableChannel {
  name: string;
  type: number;
  autoBan: boolean;
  runtime: ChannelRuntime;
  statusCodeMapping: Map<number, number>;
  /** Concurrency cap and timeout overrides from the channel's `setting` JSON. */
  limits: ChannelUpstreamLimits;
  models: readonly string[];
  groups: readonly string[];
}

/** group → model → enabled channels, plus id → channel. Immutable once built. */
export interface ChannelIndexSnapshot {
  readonly byGroup: ReadonlyMap<string, ReadonlyMap<string, readonly RouteTarget[]>>;
  readonly byId: ReadonlyMap<number, RouteTarget>;
}

/** Builds the routing index from the enabled channels. Pure. */
export function buildChannelIndex(rows: readonly IndexedChannel[]): ChannelIndexSnapshot {
  const byGroup = new Map<string, Map<string, RouteTarget[]>>();
  const byId = new Map<number, RouteTarget>();
  for (const row of rows) {
    const target: RouteTarget = {
      id: row.id,
      priority: Number(row.priority),
      weight: Number(row.weight),
      name: row.name,
      type: row.type,
      autoBan: row.auto_ban === 1,
      runtime: channelRuntimeOf(row),
      statusCodeMapping: statusCodeMappingOf(row),
      limits: channelUpstreamLimitsOf(row.setting),
      models: splitCommaList(row.models),
      groups: splitCommaList(row.group),
    };
    byId.set(row.id, target);
    if (!isSupportedChannelType(row.type)) continue;
    for (const group of target.groups) {
      let models = byGroup.get(group);
      if (!models) {
        models = new Map();
        byGroup.set(group, models);
      }
      for (const model of target.models) {
        const list = models.get(model);
        if (list) list.push(target);
        else models.set(model, [target]);
      }
    }
  }
  return { byGroup, byId };
}

/**
 * The live routing index of this node. Rebuilt from the database whenever a channel changes
 * (change bus) and every SYNC_FREQUENCY; `exclude()` drops an auto-disabled channel at once so
 * it is not routed until the rebuild (the reference keeps routing it until the next sync).
 */
export class ChannelIndex {
  private snapshot: ChannelIndexSnapshot = { byGroup: new Map(), byId: new Map() };
  private readonly excluded = new Set<number>();
  private refreshing: Promise<void> | null = null;
  private refreshAgain = false;
  /** Announced changes no running rebuild covers yet, and those the running rebuild covers. */
  private announced: { promise: Promise<void>; resolve: () => void } | null = null;
  private covered: { promise: Promise<void>; resolve: () => void } | null = null;

  constructor(private readonly load: () => Promise<IndexedChannel[]>) {}

  async rebuild(): Promise<void> {
    const rows = await this.load();
    this.snapshot = buildChannelIndex(rows);
    this.excluded.clear();
  }

  /**
   * Rebuilds in the background; requests made while a rebuild runs are coalesced into one more.
   * `announced` marks a change this node was told about (change bus): until a rebuild that
   * started after it has finished, `pending` holds a promise that relay calls wait for, so the
   * very next call after a console change (a channel disabled, created or deleted) routes by
   * the new state rather than by a stale index.
   */
  refresh(onError: (error: unknown) => void, announced = false): void {
    if (announced && !this.announced) {
      let resolve!: () => void;
      const promise = new Promise<void>((done) => {
        resolve = done;
      });
      this.announced = { promise, resolve };
    }
    if (this.refreshing) {
      this.refreshAgain = true;
      return;
    }
    const covered = this.announced;
    this.announced = null;
    this.covered = covered;
    this.refreshing = this.rebuild()
      .catch(onError)
      .finally(() => {
        this.refreshing = null;
        this.covered = null;
        // Waiters are released even when the rebuild failed: a stale index beats a hung call.
        covered?.resolve();
        if (this.refreshAgain) {
          this.refreshAgain = false;
          this.refresh(onError);
        }
      });
  }

  /** Resolves once every announced change is in the index; undefined when none is pending. */
  get pending(): Promise<void> | undefined {
    return (this.announced ?? this.covered)?.promise;
  }

  /** Enabled channels serving the model in the group (unsupported channel types left out). */
  candidates(group: string, model: string): readonly RouteTarget[] {
    const list = this.snapshot.byGroup.get(group)?.get(model) ?? [];
    return this.excluded.size === 0 ? list : list.filter((channel) => !this.excluded.has(channel.id));
  }

  /** An enabled channel by id (admin channel pinning). */
  get(id: number): RouteTarget | undefined {
    return this.excluded.has(id) ? undefined : this.snapshot.byId.get(id);
  }

  /** Models with at least one enabled channel in any of the groups, sorted. */
  modelsOf(groups: readonly string[]): string[] {
    const models = new Set<string>();
    for (const group of groups) {
      for (const [model, channels] of this.snapshot.byGroup.get(group) ?? []) {
        if (channels.some((channel) => !this.excluded.has(channel.id))) models.add(model);
      }
    }
    return [...models].sort();
  }

  /** Stops routing to a channel until the next rebuild. */
  exclude(id: number): void {
    this.excluded.add(id);
  }
}
