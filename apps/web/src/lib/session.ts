import { createStoredValue } from './external-store';

/** The signed-in user as returned by POST /api/user/login and kept in localStorage `user`. */
export interface SessionUser {
  id: number;
  username: string;
  display_name?: string;
  role: number;
  status?: number;
  group?: string;
}

export const USER_STORAGE_KEY = 'user';

function parseUser(raw: string | null): SessionUser | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<SessionUser> | null;
    if (!value || typeof value !== 'object' || value.id === undefined || value.id === null) return null;
    return {
      ...value,
      id: Number(value.id),
      username: String(value.username ?? ''),
      role: Number(value.role ?? 1),
    } as SessionUser;
  } catch {
    return null;
  }
}

const store = createStoredValue<SessionUser | null>({
  key: USER_STORAGE_KEY,
  parse: parseUser,
  serialize: (user) => (user ? JSON.stringify(user) : null),
});

/** True after the server rejected the session (401) until the next login. */
let expired = false;

/** The stored user, or null when logged out. Readable outside React. */
export const getSessionUser = (): SessionUser | null => store.get();
/** Stores the user after a successful login (every later API call carries its id). */
export const setSessionUser = (user: SessionUser): void => {
  expired = false;
  store.set(user);
};
/**
 * Forgets the user (logout, account deletion). `{ expired: true }` (a 401) makes guarded pages
 * send the visitor to /login?expired=true instead of /login.
 */
export const clearSessionUser = (options: { expired?: boolean } = {}): void => {
  expired = options.expired === true;
  store.set(null);
};
/** Whether the last session ended because the server rejected it. */
export const isSessionExpired = (): boolean => expired;
export const subscribeSession = store.subscribe;
/** React hook: the stored user, re-rendering on login/logout (also across tabs). */
export const useSessionUser = (): SessionUser | null => store.use();
