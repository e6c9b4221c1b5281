/**
 * Small helpers over localStorage. Every access is guarded because storage can be unavailable
 * (private mode, quota errors) and the console must keep working without it.
 */
export function readString(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeString(key: string, value: string | null | undefined): void {
  try {
    if (value === null || value === undefined) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Storage is best effort.
  }
}

export function readJson<T>(key: string): T | null {
  const raw = readString(key);
  if (raw === null || raw === '') return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown): void {
  writeString(key, value === undefined ? null : JSON.stringify(value));
}

export function removeKey(key: string): void {
  writeString(key, null);
}
