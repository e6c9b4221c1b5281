import { PointerEventsCheckLevel, userEvent } from '@testing-library/user-event';
import type { OptionEntry } from '../api/get-options';

/** Option values as GET /api/option/ returns them by default (secrets are never listed). Test data. */
export const DEFAULT_TEST_OPTIONS: Record<string, string> = {
  PasswordLoginEnabled: 'true',
  PasswordRegisterEnabled: 'true',
  RegisterEnabled: 'true',
  EmailVerificationEnabled: 'false',
  GitHubOAuthEnabled: 'false',
  GitHubClientId: '',
  LinuxDOOAuthEnabled: 'false',
  LinuxDOClientId: '',
  WeChatAuthEnabled: 'false',
  WeChatServerAddress: '',
  WeChatAccountQRCodeImageURL: '',
  TelegramOAuthEnabled: 'false',
  TelegramBotName: '',
  TurnstileCheckEnabled: 'false',
  TurnstileSiteKey: '',
  EmailDomainRestrictionEnabled: 'false',
  EmailAliasRestrictionEnabled: 'false',
  EmailDomainWhitelist: 'gmail.com,qq.com',
  SMTPServer: '',
  SMTPPort: '587',
  SMTPAccount: '',
  SMTPFrom: '',
  SMTPSSLEnabled: 'false',
  ServerAddress: '',
  WorkerUrl: '',
  PayAddress: '',
  EpayId: '',
  CustomCallbackAddress: '',
  Price: '7.3',
  MinTopUp: '1',
  TopupGroupRatio: '{"default":1,"vip":1,"svip":1}',
  Notice: '',
  SystemName: 'Switchyard',
  Logo: '',
  HomePageContent: '',
  About: '',
  Footer: '',
  TopUpLink: '',
  ChatLink: '',
  ChatLink2: '',
  Chats: '[{"ChatGPT Next Web":"https://app.nextchat.dev/#/?settings={\\"key\\":\\"{key}\\"}"}]',
  QuotaPerUnit: '500000',
  RetryTimes: '0',
  DisplayInCurrencyEnabled: 'true',
  DisplayTokenStatEnabled: 'true',
  DefaultCollapseSidebar: 'false',
  DemoSiteEnabled: 'false',
  SelfUseModeEnabled: 'false',
  DrawingEnabled: 'true',
  MjNotifyEnabled: 'false',
  MjAccountFilterEnabled: 'false',
  MjForwardUrlEnabled: 'true',
  MjModeClearEnabled: 'false',
  MjActionCheckSuccessEnabled: 'true',
  CheckSensitiveEnabled: 'true',
  CheckSensitiveOnPromptEnabled: 'true',
  SensitiveWords: 'test_sensitive',
  LogConsumeEnabled: 'true',
  LogConsumeRetentionDays: '0',
  LogErrorRetentionDays: '0',
  LogDetailRetentionDays: '0',
  DataExportEnabled: 'true',
  DataExportInterval: '5',
  DataExportDefaultTime: 'hour',
  ChannelDisableThreshold: '5',
  QuotaRemindThreshold: '1000',
  AutomaticDisableChannelEnabled: 'false',
  AutomaticEnableChannelEnabled: 'false',
  AutomaticDisableKeywords: 'Your credit balance is too low',
  QuotaForNewUser: '0',
  PreConsumedQuota: '500',
  QuotaForInviter: '0',
  QuotaForInvitee: '0',
  GroupRatio: '{"default":1,"vip":1,"svip":1}',
  UserUsableGroups: '{"default":"默认分组","vip":"vip分组"}',
  ModelRatio: '{"gpt-4o":1.25,"claude-3-haiku":0.125}',
  ModelPrice: '{"mj_imagine":0.1}',
  CompletionRatio: '{"gpt-4o":4}',
  CacheRatio: '{"gpt-4o":0.5}',
  ModelRequestRateLimitEnabled: 'false',
  ModelRequestRateLimitCount: '0',
  ModelRequestRateLimitSuccessCount: '1000',
  ModelRequestRateLimitDurationMinutes: '1',
  'gemini.safety_settings': '{"default":"OFF","HARM_CATEGORY_CIVIC_INTEGRITY":"BLOCK_NONE"}',
  'gemini.version_settings': '{"default":"v1beta","gemini-1.0-pro":"v1"}',
  'claude.model_headers_settings': '{}',
  'claude.default_max_tokens': '{"default":8192}',
  'claude.thinking_adapter_enabled': 'true',
  'claude.thinking_adapter_budget_tokens_percentage': '0.8',
};

/** The `data` of GET /api/option/ for the defaults with some values replaced. */
export function optionEntries(overrides: Record<string, string> = {}): OptionEntry[] {
  return Object.entries({ ...DEFAULT_TEST_OPTIONS, ...overrides }).map(([key, value]) => ({ key, value }));
}

/** Mirrors the server's rule: keys ending in Token, Secret or Key are write-only. */
const isSecret = (key: string) => /(Token|Secret|Key)$/.test(key) && key !== 'TurnstileSiteKey';

/**
 * Mock routes of a small option store: GET /api/option/ lists the current values (without
 * secrets), PUT /api/option/ stores one (or fails for the keys in `failKeys`), GET /api/status answers,
 * and no log clear has run (GET /api/log/clear_progress).
 */
export function optionServer(overrides: Record<string, string> = {}, failKeys: readonly string[] = []) {
  const state: Record<string, string> = { ...DEFAULT_TEST_OPTIONS, ...overrides };
  return {
    state,
    routes: {
      'GET /api/option/': () => ({
        body: {
          success: true,
          message: '',
          data: Object.entries(state)
            .filter(([key]) => !isSecret(key))
            .map(([key, value]) => ({ key, value })),
        },
      }),
      'PUT /api/option/': (request: { body: unknown }) => {
        const { key, value } = request.body as { key: string; value: string };
        if (failKeys.includes(key)) return { body: { success: false, message: `${key} 保存失败` } };
        state[key] = value;
        return { body: { success: true, message: '' } };
      },
      'GET /api/status': { body: { success: true, message: '', data: {} } },
      'GET /api/log/clear_progress': {
        body: {
          success: true,
          message: '',
          data: {
            state: 'idle',
            target_timestamp: 0,
            deleted: 0,
            started_at: 0,
            finished_at: 0,
            message: '',
          },
        },
      },
    },
  };
}

/**
 * A userEvent instance without the pointer-events check: the check calls getComputedStyle on
 * every ancestor, which is very slow with antd's generated styles in jsdom.
 */
export const fastUser = () =>
  userEvent.setup({ delay: null, pointerEventsCheck: PointerEventsCheckLevel.Never });
