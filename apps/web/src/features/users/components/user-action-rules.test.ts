import { describe, expect, it } from 'vitest';
import type { ManagedUser } from '../api/user-types';
import { userActionState } from './user-action-rules';

const row = (changes: Partial<ManagedUser>): ManagedUser => ({
  id: 5,
  username: 'bob',
  display_name: 'Bob',
  role: 1,
  status: 1,
  group: 'default',
  quota: 0,
  used_quota: 0,
  request_count: 0,
  deleted_at: null,
  ...changes,
});

describe('userActionState', () => {
  it('makes deactivated rows read-only', () => {
    expect(userActionState(row({ deleted_at: '2025-01-01T00:00:00Z' }), 100).readOnly).toBe(true);
    expect(
      userActionState(row({ DeletedAt: '2025-01-01T00:00:00Z', deleted_at: undefined }), 100).readOnly,
    ).toBe(true);
    expect(userActionState(row({}), 100).readOnly).toBe(false);
  });

  it('shows promote to the super admin only', () => {
    expect(userActionState(row({}), 100).showPromote).toBe(true);
    expect(userActionState(row({}), 10).showPromote).toBe(false);
  });

  it('disables every action on users of the same or a higher role', () => {
    for (const state of [userActionState(row({ role: 10 }), 10), userActionState(row({ role: 100 }), 10)]) {
      expect(state.outranked).toBe(true);
      expect(state.demoteDisabled).toBe(true);
      expect(state.toggleDisabled).toBe(true);
      expect(state.deleteDisabled).toBe(true);
      expect(state.editDisabled).toBe(true);
    }
    const lower = userActionState(row({ role: 10 }), 100);
    expect(lower.outranked).toBe(false);
    expect(lower.demoteDisabled).toBe(false);
    expect(lower.promoteDisabled).toBe(true);
  });

  it('offers Disable for enabled users and Enable otherwise, never for status 3', () => {
    expect(userActionState(row({ status: 1 }), 100)).toMatchObject({
      toggle: 'disable',
      toggleDisabled: false,
    });
    expect(userActionState(row({ status: 2 }), 100)).toMatchObject({
      toggle: 'enable',
      toggleDisabled: false,
    });
    expect(userActionState(row({ status: 3 }), 100)).toMatchObject({
      toggle: 'enable',
      toggleDisabled: true,
    });
  });

  it('cannot demote a common user', () => {
    expect(userActionState(row({ role: 1 }), 100).demoteDisabled).toBe(true);
  });
});
