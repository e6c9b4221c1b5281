import { ModelSettingsSections } from '../components/model-settings-sections';
import { OptionsBoundary } from '../components/options-boundary';

/**
 * /setting?tab=models (super administrator): Gemini and Claude settings.
 */
export function ModelSettingsPage() {
  return <OptionsBoundary>{(options) => <ModelSettingsSections options={options} />}</OptionsBoundary>;
}
