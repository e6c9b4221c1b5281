import type { ProtocolCodec, RelayCall } from '@switchyard/relay-kit';
import type { Reservation } from '../billing/billing-service.ts';
import type { Price } from '../billing/price-book.ts';
import type { TokenRow } from '../db/repositories/token-repository.ts';
import type { RelayAbort } from './relay-abort.ts';
import type { CachedUser } from './token-cache.ts';

/** Who is calling: a token (API clients) or a console session (playground). */
export interface RelayCaller {
  user: CachedUser;
  /** Null for the playground. */
  token: TokenRow | null;
  /** The group whose channels and ratio apply (token group, playground choice, or user group). */
  group: string;
  /** Admin channel pinning (`sk-<key>-<channelId>`); disables retries. */
  pinnedChannelId: number | null;
}

/** The typed per-request state of one relay call, filled stage by stage. */
export interface RelayContext {
  requestId: string;
  startedAt: number;
  clientIp: string;
  codec: ProtocolCodec;
  caller: RelayCaller;
  call: RelayCall;
  price: Price;
  /** Prompt tokens counted locally; the tokenizer runs on first read (usage missing), then kept. */
  readonly promptEstimate: number;
  reservation: Reservation;
  /** Channel ids tried, in order (logged as admin_info.use_channel). */
  attempts: number[];
  /** Aborted when the client goes away. */
  abort: RelayAbort;
  isPlayground: boolean;
  /** Milliseconds spent waiting for upstream response headers, summed over attempts. */
  upstreamWaitMs: number;
}
