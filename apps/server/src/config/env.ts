/**
 * Server configuration read from the environment. Invalid values stop start-up with a one-line
 * reason (ConfigError); nothing else in the server reads process.env.
 */
import { goMysqlDsnToUrl, sqliteFileFromPath, unusedLegacyVariables } from './legacy-env.ts';

export type DatabaseKind = 'sqlite' | 'postgres' | 'mysql';

export interface DatabaseTarget {
  kind: DatabaseKind;
  /** File path for SQLite, connection string otherwise. */
  location: string;
}

export interface Config {
  port: number;
  host: string;
  database: DatabaseTarget;
  logDatabase: DatabaseTarget | null;
  /**
   * SQLITE_CHECKPOINT_MS: a worker thread checkpoints the SQLite WAL this often (250 ms, ADR-39), so
   * commits on the event loop rarely copy pages into the database file; 0 leaves it to SQLite.
   */
  sqliteCheckpointMs: number;
  redisUrl: string | null;
  sessionSecret: string | null;
  cryptoSecret: string | null;
  nodeType: 'master' | 'slave';
  syncFrequencySeconds: number;
  batchUpdateEnabled: boolean;
  batchUpdateIntervalSeconds: number;
  /** Drawing and music task polling on the master: UPDATE_TASK (on) and TASK_POLL_INTERVAL seconds. */
  taskPolling: { enabled: boolean; intervalSeconds: number };
  logLevel: string;
  dataDirectory: string;
  /** Critical limit for login/register/reset: requests per window per IP. */
  criticalRateLimit: { max: number; windowSeconds: number };
  globalApiRateLimit: { enabled: boolean; max: number; windowSeconds: number };
  globalWebRateLimit: { enabled: boolean; max: number; windowSeconds: number };
  /** Largest accepted request body on /api routes, bytes. */
  apiBodyLimit: number;
  /** Largest accepted request body on relay routes, bytes. */
  relayBodyLimit: number;
  /** MAX_FILE_DOWNLOAD_MB: largest remote image the gateway downloads for an upstream. */
  maxFileDownloadBytes: number;
  /** ALLOW_PRIVATE_IMAGE_URLS: let image downloads reach loopback/private addresses (default no). */
  allowPrivateImageUrls: boolean;
  shutdownTimeoutMs: number;
  /** Longest wait for an upstream's response headers, seconds (RELAY_TIMEOUT; 0 = no limit). */
  relayTimeoutSeconds: number;
  /** Longest silence inside an upstream body or stream, seconds (STREAMING_TIMEOUT). */
  streamingTimeoutSeconds: number;
  /** Connect timeout to upstreams, seconds. */
  upstreamConnectTimeoutSeconds: number;
  /**
   * Most relay calls this node sends upstream at the same time (RELAY_MAX_CONCURRENCY); beyond it
   * new calls get a 503 at once instead of waiting. null (0 or unset) = no cap.
   */
  relayMaxConcurrency: number | null;
  webDistDirectory: string | null;
  /**
   * Which proxies may set X-Forwarded-For (Fastify's trustProxy): TRUSTED_PROXIES, a comma list of
   * addresses/CIDRs or `loopback`, `linklocal`, `uniquelocal` (default `loopback`); `true` trusts every hop (unsafe when
   * clients reach the server directly: they could dodge per-IP limits).
   */
  trustProxy: boolean | string;
  /**
   * Bearer token that opens GET /metrics to any address (METRICS_TOKEN, at least 16 characters);
   * null = /metrics answers only direct requests from the loopback interface.
   */
  metricsToken: string | null;
  /** Minutes between automatic tests of every channel (CHANNEL_TEST_FREQUENCY); null = off. */
  channelTestFrequencyMinutes: number | null;
  /** Minutes between automatic balance updates of enabled channels (CHANNEL_UPDATE_FREQUENCY); null = off. */
  channelUpdateFrequencyMinutes: number | null;
  /**
   * Where the server reaches the identity providers (the real ones by default; tests point them
   * at local stand-ins): GITHUB_OAUTH_BASE_URL, GITHUB_API_BASE_URL, LINUX_DO_OAUTH_BASE_URL,
   * TURNSTILE_VERIFY_URL.
   */
  identityEndpoints: IdentityEndpoints;
  /** new-api variables set in the environment that Switchyard does not read (named once at start). */
  unusedLegacyVariables: string[];
}

export interface IdentityEndpoints {
  /** GitHub's OAuth host (token exchange at /login/oauth/access_token). */
  githubOAuth: string;
  /** GitHub's REST API (the user at /user). */
  githubApi: string;
  /** Linux-DO Connect (token at /oauth2/token, user at /api/user). */
  linuxDo: string;
  /** Cloudflare Turnstile's siteverify address. */
  turnstileVerify: string;
}

/** Thrown for an invalid environment; main prints `message` on one line and exits. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

/** An integer variable between `min` and `max`, `fallback` when unset or blank. */
export function readInteger(
  env: Env,
  name: string,
  fallback: number,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
): number {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw)) throw new ConfigError(`${name} must be an integer, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max)
    throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function readBoolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name]?.trim().toLowerCase();
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${env[name]}"`);
}

/** Interprets SQL_DSN / LOG_SQL_DSN the way the reference gateway does (URLs and Go's MySQL form). */
export function parseDatabaseDsn(name: string, dsn: string): DatabaseTarget {
  const value = dsn.trim();
  if (/^postgres(ql)?:\/\//i.test(value)) return { kind: 'postgres', location: value };
  if (/^(mysql|mariadb):\/\//i.test(value))
    return { kind: 'mysql', location: value.replace(/^mariadb:/i, 'mysql:') };
  if (/^local$/i.test(value)) return { kind: 'sqlite', location: '' };
  const goForm = goMysqlDsnToUrl(value);
  if (goForm !== null) return { kind: 'mysql', location: goForm };
  throw new ConfigError(
    `${name} must be a postgres://, postgresql:// or mysql:// URL, or Go's MySQL form user:pass@tcp(host:3306)/dbname (got "${value.split('://')[0]}")`,
  );
}

function readMetricsToken(raw: string | undefined): string | null {
  const value = raw?.trim() || null;
  if (value !== null && value.length < 16)
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters');
  return value;
}

function readTrustProxy(raw: string | undefined): boolean | string {
  const value = raw?.trim();
  // Loopback only: a proxy elsewhere (docker, LAN) is trusted by naming it, or any client on a
  // private network could set X-Forwarded-For and pass IP allow-lists and per-IP limits.
  if (!value) return 'loopback';
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

function readUrl(env: Env, name: string, fallback: string): string {
  const raw = env[name]?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^https?:\/\/[^\s]+$/i.test(raw))
    throw new ConfigError(`${name} must be an http:// or https:// address`);
  return raw.replace(/\/+$/, '');
}

export function loadConfig(env: Env = process.env): Config {
  const port = readInteger(env, 'PORT', 3000, 0, 65535);
  const sqlitePath = sqliteFileFromPath(env.SQLITE_PATH?.trim() || '') || './data/switchyard.db';
  const sqlDsn = env.SQL_DSN?.trim();
  let database: DatabaseTarget = { kind: 'sqlite', location: sqlitePath };
  if (sqlDsn) {
    database = parseDatabaseDsn('SQL_DSN', sqlDsn);
    if (database.kind === 'sqlite') database = { kind: 'sqlite', location: sqlitePath };
  }
  const logDsn = env.LOG_SQL_DSN?.trim();
  let logDatabase: DatabaseTarget | null = null;
  if (logDsn) {
    logDatabase = parseDatabaseDsn('LOG_SQL_DSN', logDsn);
    if (logDatabase.kind === 'sqlite') throw new ConfigError('LOG_SQL_DSN must point to PostgreSQL or MySQL');
  }
  const redisUrl = env.REDIS_CONN_STRING?.trim() || null;
  if (redisUrl && !/^rediss?:\/\//i.test(redisUrl)) {
    throw new ConfigError('REDIS_CONN_STRING must start with redis:// or rediss://');
  }
  const sessionSecret = env.SESSION_SECRET?.trim() || null;
  if (sessionSecret === 'random_string') {
    throw new ConfigError('SESSION_SECRET must not be the example value "random_string"');
  }
  if (sessionSecret !== null && sessionSecret.length < 16) {
    throw new ConfigError('SESSION_SECRET must be at least 16 characters');
  }
  const nodeTypeRaw = (env.NODE_TYPE?.trim() || 'master').toLowerCase();
  if (nodeTypeRaw !== 'master' && nodeTypeRaw !== 'slave') {
    throw new ConfigError(`NODE_TYPE must be master or slave, got "${env.NODE_TYPE}"`);
  }
  return {
    port,
    host: env.HOST?.trim() || '0.0.0.0',
    database,
    logDatabase,
    sqliteCheckpointMs: readInteger(env, 'SQLITE_CHECKPOINT_MS', 250, 0, 60_000),
    redisUrl,
    sessionSecret,
    cryptoSecret: env.CRYPTO_SECRET?.trim() || null,
    nodeType: nodeTypeRaw,
    syncFrequencySeconds: readInteger(env, 'SYNC_FREQUENCY', 60, 1, 86_400),
    batchUpdateEnabled: readBoolean(env, 'BATCH_UPDATE_ENABLED', false),
    batchUpdateIntervalSeconds: readInteger(env, 'BATCH_UPDATE_INTERVAL', 5, 1, 3_600),
    taskPolling: {
      enabled: readBoolean(env, 'UPDATE_TASK', true),
      intervalSeconds: readInteger(env, 'TASK_POLL_INTERVAL', 15, 1, 3_600),
    },
    logLevel: env.LOG_LEVEL?.trim() || 'info',
    dataDirectory: env.DATA_DIR?.trim() || './data',
    criticalRateLimit: {
      max: readInteger(env, 'CRITICAL_RATE_LIMIT', 20, 1),
      windowSeconds: readInteger(env, 'CRITICAL_RATE_LIMIT_DURATION', 1200, 1),
    },
    globalApiRateLimit: {
      enabled: readBoolean(env, 'GLOBAL_API_RATE_LIMIT_ENABLE', true),
      max: readInteger(env, 'GLOBAL_API_RATE_LIMIT', 180, 1, 1_000_000),
      windowSeconds: readInteger(env, 'GLOBAL_API_RATE_LIMIT_DURATION', 180, 1),
    },
    globalWebRateLimit: {
      enabled: readBoolean(env, 'GLOBAL_WEB_RATE_LIMIT_ENABLE', true),
      max: readInteger(env, 'GLOBAL_WEB_RATE_LIMIT', 60, 1, 1_000_000),
      windowSeconds: readInteger(env, 'GLOBAL_WEB_RATE_LIMIT_DURATION', 180, 1),
    },
    apiBodyLimit: readInteger(env, 'API_BODY_LIMIT', 1024 * 1024, 1024),
    relayBodyLimit: readInteger(env, 'RELAY_BODY_LIMIT', 32 * 1024 * 1024, 1024),
    maxFileDownloadBytes: readInteger(env, 'MAX_FILE_DOWNLOAD_MB', 20, 1, 1024) * 1024 * 1024,
    allowPrivateImageUrls: readBoolean(env, 'ALLOW_PRIVATE_IMAGE_URLS', false),
    shutdownTimeoutMs: readInteger(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0),
    relayTimeoutSeconds: readInteger(env, 'RELAY_TIMEOUT', 300, 0, 86_400),
    streamingTimeoutSeconds: readInteger(env, 'STREAMING_TIMEOUT', 120, 1, 86_400),
    upstreamConnectTimeoutSeconds: readInteger(env, 'UPSTREAM_CONNECT_TIMEOUT', 10, 1, 600),
    relayMaxConcurrency: readInteger(env, 'RELAY_MAX_CONCURRENCY', 0, 0, 10_000_000) || null,
    webDistDirectory: env.WEB_DIST_DIR?.trim() || null,
    trustProxy: readTrustProxy(env.TRUSTED_PROXIES),
    metricsToken: readMetricsToken(env.METRICS_TOKEN),
    channelTestFrequencyMinutes: readInteger(env, 'CHANNEL_TEST_FREQUENCY', 0, 0, 525_600) || null,
    channelUpdateFrequencyMinutes: readInteger(env, 'CHANNEL_UPDATE_FREQUENCY', 0, 0, 525_600) || null,
    identityEndpoints: {
      githubOAuth: readUrl(env, 'GITHUB_OAUTH_BASE_URL', 'https://github.com'),
      githubApi: readUrl(env, 'GITHUB_API_BASE_URL', 'https://api.github.com'),
      linuxDo: readUrl(env, 'LINUX_DO_OAUTH_BASE_URL', 'https://connect.linux.do'),
      turnstileVerify: readUrl(
        env,
        'TURNSTILE_VERIFY_URL',
        'https://challenges.cloudflare.com/turnstile/v0/siteverify',
      ),
    },
    unusedLegacyVariables: unusedLegacyVariables(env),
  };
}
