import { OptionsBoundary } from '../components/options-boundary';
import { OtherSections } from '../components/other-sections';

/**
 * /setting?tab=other (super administrator): notice, system name, logo, home page content, about and
 * footer.
 */
export function OtherSettingsPage() {
  return <OptionsBoundary>{(options) => <OtherSections options={options} />}</OptionsBoundary>;
}
