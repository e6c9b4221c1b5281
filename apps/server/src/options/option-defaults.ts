import {
  DEFAULT_CACHE_RATIO,
  DEFAULT_COMPLETION_RATIO,
  DEFAULT_MODEL_PRICE,
  DEFAULT_MODEL_RATIO,
} from '../billing/pricing/default-ratios.ts';

const json = (value: unknown) => JSON.stringify(value);

const DEFAULT_AUTOMATIC_DISABLE_KEYWORDS = [
  'Your credit balance is too low',
  'This organization has been disabled.',
  'You exceeded your current quota',
  'Permission denied',
  'The security token included in the request is invalid',
  'Operation not allowed',
  'Your account is not authorized',
].join('\n');

const DEFAULT_CHATS = [
  { 'ChatGPT Next Web': 'https://app.nextchat.dev/#/?settings={"key":"{key}","url":"{address}"}' },
  {
    'Lobe Chat':
      'https://chat-preview.lobehub.com/?settings={"keyVaults":{"openai":{"apiKey":"{key}","baseURL":"{address}/v1"}}}',
  },
  {
    'AI as Workspace':
      'https://aiaw.app/set-provider?provider={"type":"openai","settings":{"apiKey":"{key}","baseURL":"{address}/v1","compatibility":"strict"}}',
  },
  { 'AMA 问天': 'ama://set-api-key?server={address}&key={key}' },
  { OpenCat: 'opencat://team/join?domain={address}&token={key}' },
];

/**
 * Every option key the gateway knows, with its default value (all values are strings).
 * Keys not listed here are refused by PUT /api/option/.
 */
export const OPTION_DEFAULTS: Readonly<Record<string, string>> = {
  // login and registration
  PasswordLoginEnabled: 'true',
  PasswordRegisterEnabled: 'true',
  RegisterEnabled: 'true',
  EmailVerificationEnabled: 'false',
  GitHubOAuthEnabled: 'false',
  GitHubClientId: '',
  GitHubClientSecret: '',
  LinuxDOOAuthEnabled: 'false',
  LinuxDOClientId: '',
  LinuxDOClientSecret: '',
  WeChatAuthEnabled: 'false',
  WeChatServerAddress: '',
  WeChatServerToken: '',
  WeChatAccountQRCodeImageURL: '',
  TelegramOAuthEnabled: 'false',
  TelegramBotToken: '',
  TelegramBotName: '',
  TurnstileCheckEnabled: 'false',
  TurnstileSiteKey: '',
  TurnstileSecretKey: '',
  EmailDomainRestrictionEnabled: 'false',
  EmailAliasRestrictionEnabled: 'false',
  EmailDomainWhitelist:
    'gmail.com,163.com,126.com,qq.com,outlook.com,hotmail.com,icloud.com,yahoo.com,foxmail.com',
  // mail
  SMTPServer: '',
  SMTPPort: '587',
  SMTPAccount: '',
  SMTPFrom: '',
  SMTPToken: '',
  SMTPSSLEnabled: 'false',
  // addresses
  ServerAddress: '',
  WorkerUrl: '',
  WorkerValidKey: '',
  // payment
  PayAddress: '',
  EpayId: '',
  EpayKey: '',
  CustomCallbackAddress: '',
  Price: '7.3',
  MinTopUp: '1',
  TopupGroupRatio: json({ default: 1, vip: 1, svip: 1 }),
  // look
  Notice: '',
  SystemName: 'Switchyard',
  Logo: '',
  HomePageContent: '',
  About: '',
  Footer: '',
  TopUpLink: '',
  ChatLink: '',
  ChatLink2: '',
  Chats: json(DEFAULT_CHATS),
  // quota and display
  QuotaPerUnit: '500000',
  RetryTimes: '0',
  DisplayInCurrencyEnabled: 'true',
  DisplayTokenStatEnabled: 'true',
  DefaultCollapseSidebar: 'false',
  DemoSiteEnabled: 'false',
  SelfUseModeEnabled: 'false',
  // drawing and tasks
  DrawingEnabled: 'true',
  TaskEnabled: 'true',
  MjNotifyEnabled: 'false',
  MjAccountFilterEnabled: 'false',
  MjForwardUrlEnabled: 'true',
  MjModeClearEnabled: 'false',
  MjActionCheckSuccessEnabled: 'true',
  // sensitive words
  CheckSensitiveEnabled: 'true',
  CheckSensitiveOnPromptEnabled: 'true',
  StopOnSensitiveEnabled: 'true',
  SensitiveWords: 'test_sensitive',
  StreamCacheQueueLength: '0',
  // logs and dashboard
  LogConsumeEnabled: 'true',
  ErrorLogEnabled: 'false',
  // days a kind of log row (or its text) is kept; 0 = forever (logs/retention/retention-rules.ts)
  LogConsumeRetentionDays: '0',
  LogErrorRetentionDays: '0',
  LogDetailRetentionDays: '0',
  DataExportEnabled: 'true',
  DataExportInterval: '5',
  DataExportDefaultTime: 'hour',
  // monitoring
  ChannelDisableThreshold: '5',
  QuotaRemindThreshold: '1000',
  AutomaticDisableChannelEnabled: 'false',
  AutomaticEnableChannelEnabled: 'false',
  AutomaticDisableKeywords: DEFAULT_AUTOMATIC_DISABLE_KEYWORDS,
  // quota
  QuotaForNewUser: '0',
  PreConsumedQuota: '500',
  // Completion tokens reserved per model when the client sets no max_tokens (else PreConsumedQuota).
  PreConsumedQuotaByModel: '{}',
  QuotaForInviter: '0',
  QuotaForInvitee: '0',
  // groups and prices
  GroupRatio: json({ default: 1, vip: 1, svip: 1 }),
  UserUsableGroups: json({ default: '默认分组', vip: 'vip分组' }),
  ModelRatio: json(DEFAULT_MODEL_RATIO),
  ModelPrice: json(DEFAULT_MODEL_PRICE),
  CompletionRatio: json(DEFAULT_COMPLETION_RATIO),
  CacheRatio: json(DEFAULT_CACHE_RATIO),
  // model request rate limit
  ModelRequestRateLimitEnabled: 'false',
  ModelRequestRateLimitCount: '0',
  ModelRequestRateLimitSuccessCount: '1000',
  ModelRequestRateLimitDurationMinutes: '1',
  // model settings
  'gemini.safety_settings': json({ default: 'OFF', HARM_CATEGORY_CIVIC_INTEGRITY: 'BLOCK_NONE' }),
  'gemini.version_settings': json({ default: 'v1beta', 'gemini-1.0-pro': 'v1' }),
  'claude.model_headers_settings': json({}),
  'claude.default_max_tokens': json({ default: 8192 }),
  'claude.thinking_adapter_enabled': 'true',
  'claude.thinking_adapter_budget_tokens_percentage': '0.8',
  'global.pass_through_request_enabled': 'false',
  'general_setting.docs_link': '',
};

/** Options whose value must parse as JSON ('不是合法的 JSON 字符串' otherwise). */
export const JSON_OPTION_KEYS = new Set([
  'PreConsumedQuotaByModel',
  'TopupGroupRatio',
  'Chats',
  'GroupRatio',
  'UserUsableGroups',
  'ModelRatio',
  'ModelPrice',
  'CompletionRatio',
  'CacheRatio',
  'gemini.safety_settings',
  'gemini.version_settings',
  'claude.model_headers_settings',
  'claude.default_max_tokens',
]);

/** Address options whose trailing slash is removed on save. */
export const ADDRESS_OPTION_KEYS = new Set([
  'ServerAddress',
  'WorkerUrl',
  'PayAddress',
  'WeChatServerAddress',
  'CustomCallbackAddress',
]);

/** Log retention in days: 0 keeps forever; at most ten years. */
const RETENTION_DAYS_RULE = { min: 0, max: 3650, integer: true };

/** Numeric options with their inclusive bounds and whether they must be integers. */
export const NUMERIC_OPTION_RULES: Readonly<
  Record<string, { min: number; max?: number; integer?: boolean }>
> = {
  SMTPPort: { min: 1, max: 65535, integer: true },
  Price: { min: 0 },
  MinTopUp: { min: 1 },
  QuotaPerUnit: { min: 1 },
  RetryTimes: { min: 0, max: 10, integer: true },
  StreamCacheQueueLength: { min: 0, integer: true },
  DataExportInterval: { min: 1, integer: true },
  LogConsumeRetentionDays: RETENTION_DAYS_RULE,
  LogErrorRetentionDays: RETENTION_DAYS_RULE,
  LogDetailRetentionDays: RETENTION_DAYS_RULE,
  ChannelDisableThreshold: { min: 0 },
  QuotaRemindThreshold: { min: 0, integer: true },
  QuotaForNewUser: { min: 0, integer: true },
  PreConsumedQuota: { min: 0, integer: true },
  QuotaForInviter: { min: 0, integer: true },
  QuotaForInvitee: { min: 0, integer: true },
  ModelRequestRateLimitCount: { min: 0, integer: true },
  ModelRequestRateLimitSuccessCount: { min: 1, integer: true },
  ModelRequestRateLimitDurationMinutes: { min: 0, integer: true },
  'claude.thinking_adapter_budget_tokens_percentage': { min: 0.1, max: 1 },
};

/** Options that hold secrets: never returned by GET /api/option/ and never logged. */
export function isSecretOptionKey(key: string): boolean {
  return /(Token|Secret|Key)$/.test(key) && key !== 'TurnstileSiteKey';
}

/** Boolean options: keys ending in Enabled, the sidebar option, and dotted *_enabled settings. */
export function isBooleanOptionKey(key: string): boolean {
  return key.endsWith('Enabled') || key === 'DefaultCollapseSidebar' || key.endsWith('_enabled');
}
