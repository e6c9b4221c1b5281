import type { SessionStore } from './auth/session-store.ts';
import type { VerificationService } from './auth/verification-service.ts';
import type { Config } from './config/env.ts';
import type { DatabaseHandle } from './db/database.ts';
import type { ChannelRepository } from './db/repositories/channel-repository.ts';
import type { LogRepository } from './db/repositories/log-repository.ts';
import type { OptionRepository } from './db/repositories/option-repository.ts';
import type { TokenRepository } from './db/repositories/token-repository.ts';
import type { UserRepository } from './db/repositories/user-repository.ts';
import type { ChangeBus } from './lib/change-bus.ts';
import type { QuotaDataRecorder } from './logs/quota-data-recorder.ts';
import type { LogCleaner } from './logs/retention/log-cleaner.ts';
import type { Mailer } from './mail/mailer.ts';
import type { OptionStore } from './options/option-store.ts';
import type { RateLimiter } from './rate-limit/rate-limiter.ts';
import type { RelayRuntime } from './relay/relay-runtime.ts';
import type { AppLifecycle } from './start/subsystems.ts';

/**
 * Everything route handlers and services need, built once at start-up and decorated onto the
 * Fastify instance as `app.services`. Services take what they need from here as arguments so
 * they can be unit-tested without Fastify.
 */
export interface AppServices {
  config: Config;
  database: DatabaseHandle;
  logDatabase: DatabaseHandle;
  sessionSecret: string;
  /** Server-side revocation of console sessions (logout, disabled and deleted users). */
  sessions: SessionStore;
  startTime: number;
  version: string;
  bus: ChangeBus;
  options: OptionStore;
  optionRepository: OptionRepository;
  users: UserRepository;
  tokens: TokenRepository;
  channels: ChannelRepository;
  logs: LogRepository;
  /** Batched log deletion: "clear logs before" and, on the master, the retention schedule. */
  logCleaner: LogCleaner;
  /** Dashboard data (quota_data) accumulated in memory and flushed every DataExportInterval minutes. */
  quotaData: QuotaDataRecorder;
  mailer: Mailer;
  verifications: VerificationService;
  /** Per-IP API/web limits and notices: memory per node, or Redis when configured. */
  rateLimiter: RateLimiter;
  /** ModelRequestRateLimit: Redis, else the database on PostgreSQL/MySQL, else memory (ADR-19). */
  modelRateLimiter: RateLimiter;
  relay: RelayRuntime;
  /**
   * The subsystems' closes (start/subsystems.ts): run once the server stops taking requests, in
   * the order their declared needs give. A late subsystem (the demo's mock) registers here too.
   */
  lifecycle: AppLifecycle;
}

declare module 'fastify' {
  interface FastifyInstance {
    services: AppServices;
    /** The relay lane: the front door of every relay route (relay/lane/relay-lane.ts). */
    relayLane: import('./relay/lane/relay-lane.ts').RelayLane;
  }
  interface FastifyRequest {
    /** The authenticated console user, set by the user/admin/root guards. */
    user: import('./db/repositories/user-repository.ts').UserRow | null;
  }
}
