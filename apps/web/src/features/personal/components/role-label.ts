import { isAdminRole, isRootRole } from '../../../lib/access';

/** i18n key (personal namespace) naming a role. */
export function roleLabelKey(role: number): string {
  if (isRootRole(role)) return 'profile.roles.root';
  if (isAdminRole(role)) return 'profile.roles.admin';
  return 'profile.roles.common';
}
