import { OperationSections } from '../components/operation-sections';
import { OptionsBoundary } from '../components/options-boundary';

/**
 * /setting?tab=operation (super administrator): general, chats, drawing, sensitive words, logs,
 * dashboard, monitoring, quota, groups and model ratios.
 */
export function OperationSettingsPage() {
  return <OptionsBoundary>{(options) => <OperationSections options={options} />}</OptionsBoundary>;
}
