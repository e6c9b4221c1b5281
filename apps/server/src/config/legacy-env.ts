/**
 * The environment as new-api and one-api operators already have it: their SQL_DSN and
 * SQLITE_PATH forms, and the variables of theirs Switchyard does not read (named once at start).
 */

/**
 * Go's MySQL DSN (`user:pass@tcp(host:3306)/db?charset=utf8mb4&parseTime=True&loc=Local`) as a
 * mysql:// URL; null when the text is not in that form. The Go driver's parameters (charset,
 * parseTime, loc, …) mean nothing to Node's driver, which always uses utf8mb4 and UTC.
 */
export function goMysqlDsnToUrl(dsn: string): string | null {
  const match = /^(?:([^:@/]*)(?::(.*))?@)?(?:(tcp|unix)\(([^)]*)\))?\/([^?]*)(?:\?.*)?$/s.exec(dsn);
  if (match === null) return null;
  const [, user = '', password, net = 'tcp', address = '', database] = match;
  const credentials =
    user === ''
      ? ''
      : `${encodeURIComponent(user)}${password === undefined ? '' : `:${encodeURIComponent(password)}`}@`;
  const name = encodeURIComponent(database ?? '');
  if (net === 'unix')
    return `mysql://${credentials}localhost/${name}?socketPath=${encodeURIComponent(address)}`;
  return `mysql://${credentials}${address === '' ? '127.0.0.1:3306' : address}/${name}`;
}

/** SQLITE_PATH without new-api's query suffix (`one-api.db?_busy_timeout=30000`). */
export function sqliteFileFromPath(path: string): string {
  const query = path.indexOf('?');
  return query === -1 ? path : path.slice(0, query);
}

/**
 * Variables new-api reads that Switchyard does not (its own are read with the same meaning by
 * loadConfig; Gemini/Cohere/Azure settings and notification limits are console options here).
 */
const notUsed = [
  'AZURE_DEFAULT_API_VERSION',
  'COHERE_SAFETY_SETTING',
  'DIFY_DEBUG',
  'ENABLE_PPROF',
  'FORCE_STREAM_OPTION',
  'FRONTEND_BASE_URL',
  'GEMINI_MODEL_MAP',
  'GEMINI_SAFETY_SETTING',
  'GEMINI_VISION_MAX_IMAGE_NUM',
  'GENERATE_DEFAULT_TOKEN',
  'GET_MEDIA_TOKEN',
  'GET_MEDIA_TOKEN_NOT_STREAM',
  'GIN_MODE',
  'MEMORY_CACHE_ENABLED',
  'NOTIFICATION_LIMIT_DURATION_MINUTE',
  'NOTIFY_LIMIT_COUNT',
  'POLLING_INTERVAL',
  'REDIS_POOL_SIZE',
  'SQL_MAX_IDLE_CONNS',
  'SQL_MAX_LIFETIME',
  'SQL_MAX_OPEN_CONNS',
  'TIKTOKEN_CACHE_DIR',
];

/** The new-api variables set in `env` that Switchyard ignores. */
export function unusedLegacyVariables(env: Record<string, string | undefined>): string[] {
  return notUsed.filter((name) => (env[name]?.trim() ?? '') !== '');
}
