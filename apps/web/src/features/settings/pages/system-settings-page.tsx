import { OptionsBoundary } from '../components/options-boundary';
import { SystemSections } from '../components/system-sections';

/**
 * /setting?tab=system (super administrator): addresses, payment, login and registration, e-mail
 * restriction, SMTP and sign-in providers.
 */
export function SystemSettingsPage() {
  return <OptionsBoundary>{(options) => <SystemSections options={options} />}</OptionsBoundary>;
}
