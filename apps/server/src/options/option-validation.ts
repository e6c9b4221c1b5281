import {
  ADDRESS_OPTION_KEYS,
  isBooleanOptionKey,
  JSON_OPTION_KEYS,
  NUMERIC_OPTION_RULES,
  OPTION_DEFAULTS,
} from './option-defaults.ts';

export const INVALID_JSON_MESSAGE = '不是合法的 JSON 字符串';

/** Largest option value: the options.value column is TEXT, which holds 65,535 bytes on MySQL. */
export const OPTION_VALUE_MAX_BYTES = 65_535;

/** The outcome of checking one option write: the normalized value, or a message for the user. */
export type OptionCheck = { ok: true; value: string } | { ok: false; message: string };

/** Options that may only be switched on once the settings they depend on are filled in. */
const ENABLE_REQUIREMENTS: Record<string, { keys: string[]; message: string }> = {
  GitHubOAuthEnabled: {
    keys: ['GitHubClientId', 'GitHubClientSecret'],
    message: '无法启用 GitHub OAuth，请先填入 GitHub Client Id 以及 GitHub Client Secret！',
  },
  LinuxDOOAuthEnabled: {
    keys: ['LinuxDOClientId', 'LinuxDOClientSecret'],
    message: '无法启用 LinuxDO OAuth，请先填入 LinuxDO Client Id 以及 LinuxDO Client Secret！',
  },
  WeChatAuthEnabled: {
    keys: ['WeChatServerAddress', 'WeChatServerToken'],
    message: '无法启用微信登录，请先填入微信登录相关配置信息！',
  },
  TurnstileCheckEnabled: {
    keys: ['TurnstileSiteKey', 'TurnstileSecretKey'],
    message: '无法启用 Turnstile 校验，请先填入 Turnstile 校验相关配置信息！',
  },
  TelegramOAuthEnabled: {
    keys: ['TelegramBotToken', 'TelegramBotName'],
    message: '无法启用 Telegram OAuth，请先填入 Telegram Bot Token 以及 Telegram Bot Name！',
  },
  EmailDomainRestrictionEnabled: {
    keys: ['EmailDomainWhitelist'],
    message: '无法启用邮箱域名限制，请先填入限制的邮箱域名！',
  },
};

function checkJson(key: string, value: string): string | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return INVALID_JSON_MESSAGE;
  }
  if (key === 'Chats') return Array.isArray(parsed) ? null : INVALID_JSON_MESSAGE;
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return INVALID_JSON_MESSAGE;
  const entries = Object.entries(parsed as Record<string, unknown>);
  const numericMaps = [
    'GroupRatio',
    'TopupGroupRatio',
    'ModelRatio',
    'ModelPrice',
    'CompletionRatio',
    'CacheRatio',
  ];
  if (numericMaps.includes(key)) {
    for (const [name, ratio] of entries) {
      if (typeof ratio !== 'number' || !Number.isFinite(ratio)) return `${key} 中 ${name} 的值必须是数字`;
      if (ratio < 0) return `${key} 中 ${name} 的值不能为负数`;
    }
  }
  if (key === 'PreConsumedQuotaByModel') {
    for (const [name, tokens] of entries) {
      if (typeof tokens !== 'number' || !Number.isInteger(tokens) || tokens < 0)
        return `PreConsumedQuotaByModel 中 ${name} 的值必须是非负整数`;
    }
  }
  if (key === 'UserUsableGroups') {
    for (const [name, description] of entries) {
      if (typeof description !== 'string') return `UserUsableGroups 中 ${name} 的描述必须是字符串`;
    }
  }
  return null;
}

/**
 * Validates and normalizes a value written to an option.
 * `current` reads the present value of another option (for the enable requirements).
 */
export function checkOptionWrite(
  key: string,
  rawValue: unknown,
  current: (key: string) => string,
): OptionCheck {
  if (!(key in OPTION_DEFAULTS)) return { ok: false, message: `未知的配置项 ${key}` };
  let value: string;
  if (typeof rawValue === 'string') value = rawValue;
  else if (typeof rawValue === 'boolean' || typeof rawValue === 'number') value = String(rawValue);
  else if (rawValue === null || rawValue === undefined) value = '';
  else return { ok: false, message: `配置项 ${key} 的值必须是字符串` };
  if (new TextEncoder().encode(value).length > OPTION_VALUE_MAX_BYTES) {
    return { ok: false, message: `配置项 ${key} 的值过长，最多 ${OPTION_VALUE_MAX_BYTES} 字节` };
  }

  if (isBooleanOptionKey(key)) {
    if (value !== 'true' && value !== 'false')
      return { ok: false, message: `配置项 ${key} 的值必须是 true 或 false` };
    const requirement = ENABLE_REQUIREMENTS[key];
    if (value === 'true' && requirement && requirement.keys.some((k) => current(k).trim() === '')) {
      return { ok: false, message: requirement.message };
    }
    return { ok: true, value };
  }
  if (JSON_OPTION_KEYS.has(key)) {
    const problem = checkJson(key, value);
    return problem ? { ok: false, message: problem } : { ok: true, value };
  }
  const rule = NUMERIC_OPTION_RULES[key];
  if (rule) {
    const trimmed = value.trim();
    const number = Number(trimmed);
    if (trimmed === '' || !Number.isFinite(number))
      return { ok: false, message: `配置项 ${key} 的值必须是数字` };
    if (rule.integer && !Number.isInteger(number))
      return { ok: false, message: `配置项 ${key} 的值必须是整数` };
    if (number < rule.min) return { ok: false, message: `配置项 ${key} 的值不能小于 ${rule.min}` };
    if (rule.max !== undefined && number > rule.max) {
      return { ok: false, message: `配置项 ${key} 的值不能大于 ${rule.max}` };
    }
    return { ok: true, value: trimmed };
  }
  if (key === 'DataExportDefaultTime' && !['hour', 'day', 'week'].includes(value)) {
    return { ok: false, message: 'DataExportDefaultTime 只能是 hour、day 或 week' };
  }
  if (ADDRESS_OPTION_KEYS.has(key)) {
    value = value.trim().replace(/\/+$/, '');
    if (value !== '' && !/^https?:\/\/[^\s]+$/i.test(value)) {
      return { ok: false, message: `配置项 ${key} 必须是 http:// 或 https:// 开头的地址` };
    }
  }
  return { ok: true, value };
}
