/** A user row as the admin API returns it (GET /api/user/, /api/user/search, /api/user/{id}). */
export interface ManagedUser {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  email?: string;
  github_id?: string;
  wechat_id?: string;
  telegram_id?: string;
  linux_do_id?: string;
  group: string;
  quota: number;
  used_quota: number;
  request_count: number;
  aff_count?: number;
  inviter_id?: number;
  /** Soft-deletion time; non-null means the account is deactivated. */
  deleted_at?: string | null;
  /** The same as deleted_at under the original API's Go field name. */
  DeletedAt?: string | null;
}

/** Paged reply of the list and search endpoints. */
export interface UserPage {
  items: ManagedUser[];
  page: number;
  page_size: number;
  total: number;
}

/** User status (spec §3): 1 enabled, 2 banned, 3 unknown (cannot be enabled). */
export const UserStatus = { Enabled: 1, Disabled: 2, Unknown: 3 } as const;

export type ManageAction = 'promote' | 'demote' | 'disable' | 'enable' | 'delete';

export function isDeactivated(user: Pick<ManagedUser, 'deleted_at' | 'DeletedAt'>): boolean {
  return (user.deleted_at ?? user.DeletedAt ?? null) !== null;
}
