import { useSyncExternalStore } from 'react';

/**
 * A tiny observable value kept in sync with localStorage, readable outside React (api-client) and
 * inside React through `useStore`. The snapshot is cached by the raw stored string so
 * useSyncExternalStore sees a stable reference.
 */
export interface StoredValue<T> {
  get(): T;
  set(value: T): void;
  subscribe(listener: () => void): () => void;
  use(): T;
}

export function createStoredValue<T>(options: {
  key: string;
  parse: (raw: string | null) => T;
  serialize: (value: T) => string | null;
}): StoredValue<T> {
  const listeners = new Set<() => void>();
  let cachedRaw: string | null | undefined;
  let cachedValue: T;

  const readRaw = (): string | null => {
    try {
      return window.localStorage.getItem(options.key);
    } catch {
      return null;
    }
  };

  const get = (): T => {
    const raw = readRaw();
    if (raw !== cachedRaw || cachedRaw === undefined) {
      cachedRaw = raw;
      cachedValue = options.parse(raw);
    }
    return cachedValue;
  };

  const emit = () => {
    for (const listener of listeners) listener();
  };

  const set = (value: T) => {
    const raw = options.serialize(value);
    try {
      if (raw === null) window.localStorage.removeItem(options.key);
      else window.localStorage.setItem(options.key, raw);
    } catch {
      // Storage unavailable: keep the value in memory only.
    }
    cachedRaw = raw;
    cachedValue = value;
    emit();
  };

  const subscribe = (listener: () => void) => {
    listeners.add(listener);
    const onStorage = (event: StorageEvent) => {
      if (event.key === options.key || event.key === null) listener();
    };
    window.addEventListener('storage', onStorage);
    return () => {
      listeners.delete(listener);
      window.removeEventListener('storage', onStorage);
    };
  };

  return {
    get,
    set,
    subscribe,
    use: () => useSyncExternalStore(subscribe, get, get),
  };
}
