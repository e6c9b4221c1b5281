import { apiClient } from '../../../lib/api-client';
import { type SiteStatus, saveSiteStatus } from '../../../lib/site-status';

/**
 * GET /api/status and store it, so the shell (system name, logo, footer, sidebar flags, currency
 * display) follows options just saved. Best effort: a failure keeps the stored status.
 */
export async function refreshSiteStatus(): Promise<void> {
  try {
    const status = await apiClient.get<SiteStatus>('/api/status', { silent: true });
    if (status && typeof status === 'object') saveSiteStatus(status);
  } catch {
    // The next start loads it again.
  }
}
