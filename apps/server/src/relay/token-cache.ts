import type { TokenRow } from '../db/repositories/token-repository.ts';
import type { UserRow } from '../db/repositories/user-repository.ts';

/** What token authentication needs about the token's owner. */
export interface CachedUser {
  id: number;
  username: string;
  role: number;
  status: number;
  group: string;
  deleted: boolean;
  setting: string;
}

interface Entry<T> {
  value: T | null;
  expiresAt: number;
}

/**
 * In-memory read-through caches for relay authentication: token by key and user by id. Entries
 * live `ttlMs` (SYNC_FREQUENCY by default) and are dropped at once when the change bus reports a
 * change, so the hot path reads the database only on a miss. Misses are cached too (briefly), so
 * a flood of bad keys cannot turn into a flood of queries. Quota is never taken from here: the
 * reservation's conditional update in the database is the authority.
 */
export class TokenCache {
  private readonly tokens = new Map<string, Entry<TokenRow>>();
  private readonly tokenKeysById = new Map<number, string>();
  private readonly users = new Map<number, Entry<CachedUser>>();
  private readonly pendingTokens = new Map<string, Promise<TokenRow | null>>();

  constructor(
    private readonly loadToken: (key: string) => Promise<TokenRow | undefined>,
    private readonly loadUser: (id: number) => Promise<UserRow | undefined>,
    private readonly ttlMs: number,
    private readonly missTtlMs = 2_000,
    private readonly maxEntries = 100_000,
  ) {}

  /** Told about every lookup (hit or miss), for the cache metrics. */
  onLookup: (cache: 'token' | 'user', hit: boolean) => void = () => undefined;

  /**
   * The token for `key` when the cache holds a fresh entry (null: a remembered miss), counted as a
   * hit; undefined when it must be loaded (`token`). Lets the relay authenticate a cached key
   * without a promise.
   */
  cachedToken(key: string): TokenRow | null | undefined {
    return this.fresh(this.tokens, key, 'token');
  }

  async token(key: string): Promise<TokenRow | null> {
    const cached = this.cachedToken(key);
    if (cached !== undefined) return cached;
    this.onLookup('token', false);
    const pending = this.pendingTokens.get(key);
    if (pending) return pending;
    const load = this.loadToken(key)
      .then((row) => {
        const value = row && row.deleted_at === null ? row : null;
        this.remember(this.tokens, key, value, value ? this.ttlMs : this.missTtlMs);
        if (value) this.tokenKeysById.set(value.id, key);
        return value;
      })
      .finally(() => this.pendingTokens.delete(key));
    this.pendingTokens.set(key, load);
    return load;
  }

  /** The user when the cache holds a fresh entry (null: a remembered miss), counted as a hit; else undefined. */
  cachedUser(id: number): CachedUser | null | undefined {
    return this.fresh(this.users, id, 'user');
  }

  /** A fresh entry's value, counted as a hit; undefined when absent or expired (not counted). */
  private fresh<K, T>(map: Map<K, Entry<T>>, key: K, cache: 'token' | 'user'): T | null | undefined {
    const entry = map.get(key);
    if (entry === undefined || entry.expiresAt <= Date.now()) return undefined;
    this.onLookup(cache, true);
    return entry.value;
  }

  async user(id: number): Promise<CachedUser | null> {
    const cached = this.cachedUser(id);
    if (cached !== undefined) return cached;
    this.onLookup('user', false);
    const row = await this.loadUser(id);
    const value: CachedUser | null = row
      ? {
          id: row.id,
          username: row.username,
          role: row.role,
          status: row.status,
          group: row.group,
          deleted: row.deleted_at !== null,
          setting: row.setting ?? '',
        }
      : null;
    this.remember(this.users, id, value, value ? this.ttlMs : this.missTtlMs);
    return value;
  }

  /** Forgets a token by id (its key is looked up from what this cache has seen). */
  invalidateToken(id: number): void {
    const key = this.tokenKeysById.get(id);
    if (key !== undefined) this.tokens.delete(key);
    this.tokenKeysById.delete(id);
  }

  invalidateUser(id: number): void {
    this.users.delete(id);
  }

  clear(): void {
    this.tokens.clear();
    this.tokenKeysById.clear();
    this.users.clear();
  }

  private remember<K, T>(map: Map<K, Entry<T>>, key: K, value: T | null, ttl: number): void {
    if (map.size >= this.maxEntries) map.clear();
    map.set(key, { value, expiresAt: Date.now() + ttl });
  }
}
