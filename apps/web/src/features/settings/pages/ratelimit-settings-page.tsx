import { OptionsBoundary } from '../components/options-boundary';
import { RateLimitSection } from '../components/rate-limit-section';

/**
 * /setting?tab=ratelimit (super administrator): model request rate limit.
 */
export function RateLimitSettingsPage() {
  return <OptionsBoundary>{(options) => <RateLimitSection options={options} />}</OptionsBoundary>;
}
