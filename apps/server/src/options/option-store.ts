import type { OptionRepository } from '../db/repositories/option-repository.ts';
import type { ChangeBus } from '../lib/change-bus.ts';
import { OPTION_DEFAULTS } from './option-defaults.ts';
import { checkOptionWrite, type OptionCheck } from './option-validation.ts';

/** Keys stored in the options table that are internal and never shown or writable through the API. */
export const INTERNAL_OPTION_KEYS = new Set(['SessionSecret']);

/**
 * All options in memory (defaults overlaid with stored values). Reads are synchronous map look-ups;
 * writes go to the database first, then to memory, then to the change bus so other nodes reload.
 */
export class OptionStore {
  private readonly values = new Map<string, string>(Object.entries(OPTION_DEFAULTS));
  private readonly parsedJson = new Map<string, unknown>();
  private readonly listeners: Array<(key: string) => void> = [];

  constructor(
    private readonly repository: OptionRepository,
    private readonly bus: ChangeBus,
  ) {
    bus.subscribe((topic) => {
      if (topic === 'options') void this.reload().catch(() => undefined);
    });
  }

  /** Reads every stored option; unknown stored keys are kept (forward compatibility). */
  async reload(): Promise<void> {
    const rows = await this.repository.all();
    const changed: string[] = [];
    for (const row of rows) {
      const value = row.value;
      if (this.values.get(row.key) !== value) {
        this.values.set(row.key, value);
        this.parsedJson.delete(row.key);
        changed.push(row.key);
      }
    }
    for (const key of changed) for (const listener of this.listeners) listener(key);
  }

  get(key: string): string {
    return this.values.get(key) ?? OPTION_DEFAULTS[key] ?? '';
  }

  getBoolean(key: string): boolean {
    return this.get(key) === 'true';
  }

  getNumber(key: string): number {
    const value = Number(this.get(key));
    if (Number.isFinite(value)) return value;
    const fallback = Number(OPTION_DEFAULTS[key]);
    return Number.isFinite(fallback) ? fallback : 0;
  }

  /** Parsed JSON value, cached until the option changes; the default when the stored text is broken. */
  getJson<T>(key: string): T {
    if (this.parsedJson.has(key)) return this.parsedJson.get(key) as T;
    let parsed: unknown;
    try {
      parsed = JSON.parse(this.get(key));
    } catch {
      parsed = JSON.parse(OPTION_DEFAULTS[key] ?? 'null');
    }
    this.parsedJson.set(key, parsed);
    return parsed as T;
  }

  /** Every option as key/value pairs, for the admin console (secrets filtered by the caller). */
  entries(): Array<[string, string]> {
    return [...this.values.entries()].filter(([key]) => !INTERNAL_OPTION_KEYS.has(key));
  }

  /** Validates, persists and publishes one option. Invalid values are not saved. */
  async set(key: string, rawValue: unknown): Promise<OptionCheck> {
    const check = INTERNAL_OPTION_KEYS.has(key)
      ? ({ ok: false, message: `未知的配置项 ${key}` } as const)
      : checkOptionWrite(key, rawValue, (other) => this.get(other));
    if (!check.ok) return check;
    await this.persist(key, check.value);
    return check;
  }

  /** Writes without validation; for internal keys and seeded values. */
  async persist(key: string, value: string): Promise<void> {
    await this.repository.upsert(key, value);
    this.values.set(key, value);
    this.parsedJson.delete(key);
    for (const listener of this.listeners) listener(key);
    this.bus.publish('options', key);
  }

  /** Runs when an option changes on this node (after a write or a reload). */
  onChange(listener: (key: string) => void): void {
    this.listeners.push(listener);
  }
}
