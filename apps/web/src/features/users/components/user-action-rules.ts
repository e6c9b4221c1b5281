import { isAdminRole, isRootRole, Role } from '../../../lib/access';
import { isDeactivated, type ManagedUser, UserStatus } from '../api/user-types';

/** What the actions column offers for one row, given the signed-in admin. */
export interface UserActionState {
  /** Deactivated rows are read-only: no actions at all. */
  readOnly: boolean;
  /** The row's role is the same or higher than the admin's: every action is disabled. */
  outranked: boolean;
  showPromote: boolean;
  promoteDisabled: boolean;
  demoteDisabled: boolean;
  /** 'disable' for enabled users, otherwise 'enable'. */
  toggle: 'disable' | 'enable';
  toggleDisabled: boolean;
  deleteDisabled: boolean;
  editDisabled: boolean;
}

/**
 * Spec rules: deactivated rows have no actions; Enable is unavailable for status 3; only the
 * super admin may promote (promote is hidden otherwise); actions on users of the same or a
 * higher role are disabled. The server enforces the same rules.
 */
export function userActionState(row: ManagedUser, currentRole: number): UserActionState {
  const readOnly = isDeactivated(row);
  const outranked = row.role >= currentRole;
  const toggle = row.status === UserStatus.Enabled ? 'disable' : 'enable';
  return {
    readOnly,
    outranked,
    showPromote: isRootRole(currentRole),
    promoteDisabled: outranked || isAdminRole(row.role),
    demoteDisabled: outranked || row.role <= Role.Common,
    toggle,
    toggleDisabled: outranked || (toggle === 'enable' && row.status === UserStatus.Unknown),
    deleteDisabled: outranked,
    editDisabled: outranked,
  };
}
