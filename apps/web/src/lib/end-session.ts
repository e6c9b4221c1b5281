import { apiClient } from './api-client';
import { clearSessionUser } from './session';

/**
 * Ends the session: GET /api/user/logout (a failure does not keep the user logged in locally),
 * then forgets the stored user. Shared by logout and account deletion.
 */
export async function endSession(): Promise<void> {
  try {
    await apiClient.get('/api/user/logout', { silent: true });
  } catch {
    // The local session is cleared regardless.
  }
  clearSessionUser();
}
