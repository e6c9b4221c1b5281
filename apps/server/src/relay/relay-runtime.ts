import type { ProviderSettings } from '@switchyard/relay-kit';
import type { BillingService } from '../billing/ledger/billing-service.ts';
import type { ChannelIndex } from '../channels/channel-index.ts';
import type { LogWriter } from '../logs/log-writer.ts';
import type { QuotaDataRecorder } from '../logs/quota-data-recorder.ts';
import type { QuotaNotifier } from '../notifications/quota-notifier.ts';
import type { GatewayMetrics } from '../observability/gateway-metrics.ts';
import type { ImageFetchSettings } from './images/remote-image-fetcher.ts';
import type { SettlementsInFlight } from './settlements-in-flight.ts';
import type { TokenCache } from './token-cache.ts';
import type { UpstreamClient } from './upstream-client.ts';

/** The hot path's long-lived collaborators, built once at start-up (see app.ts). */
export interface RelayRuntime {
  channelIndex: ChannelIndex;
  tokenCache: TokenCache;
  billing: BillingService;
  upstream: UpstreamClient;
  logWriter: LogWriter;
  /** Dashboard data recorder, fed by settlement when DataExportEnabled (set by app.ts). */
  quotaData?: QuotaDataRecorder;
  /** Low-quota warnings after a charge. */
  quotaNotifier: QuotaNotifier;
  /** The site's `claude.*` / `gemini.*` model settings, parsed once per change. */
  providerSettings: () => ProviderSettings;
  /** How remote images are downloaded for upstreams that need them inline (WorkerUrl...). */
  imageFetchSettings: () => ImageFetchSettings;
  /** HTTP for adapters' own calls (credential exchange, model lists); `fetch` in production. */
  fetch: typeof globalThis.fetch;
  /** This app's metrics (set by app.ts; absent in unit tests of single stages). */
  metrics?: GatewayMetrics;
  /** Random source for channel selection (seeded in tests). */
  random: () => number;
  /** Settlements still running; shutdown (and tests) wait for them with `drain()`. */
  settlements: SettlementsInFlight;
  /** Waits until every running settlement is done and queued logs are written. */
  drain(): Promise<void>;
}
