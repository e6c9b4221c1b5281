/** Role levels of a user. Admin checks are "role >= Admin", super-admin checks "role >= Root". */
export const Role = {
  Guest: 0,
  Common: 1,
  Admin: 10,
  Root: 100,
} as const;
export type RoleValue = (typeof Role)[keyof typeof Role];

/** True when the role may use the admin console routes. */
export const isAdminRole = (role: number): boolean => role >= Role.Admin;
/** True when the role is the super administrator. */
export const isRootRole = (role: number): boolean => role >= Role.Root;
