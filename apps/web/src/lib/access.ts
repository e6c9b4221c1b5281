/** Role levels (mirrors packages/shared constants/roles.ts). */
export const Role = { Guest: 0, Common: 1, Admin: 10, Root: 100 } as const;

/** Who may open a route, a menu entry or a settings tab. */
export type Access = 'public' | 'user' | 'admin' | 'root';

export const isAdminRole = (role: number | undefined): boolean => (role ?? 0) >= Role.Admin;
export const isRootRole = (role: number | undefined): boolean => (role ?? 0) >= Role.Root;

/** True when a visitor (null = logged out) satisfies an access flag. */
export function hasAccess(access: Access, user: { role: number } | null | undefined): boolean {
  switch (access) {
    case 'public':
      return true;
    case 'user':
      return Boolean(user);
    case 'admin':
      return Boolean(user) && isAdminRole(user?.role);
    case 'root':
      return Boolean(user) && isRootRole(user?.role);
  }
}
