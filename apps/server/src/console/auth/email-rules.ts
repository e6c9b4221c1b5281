import { invalidRequest } from '../../errors/gateway-error.ts';
import type { OptionStore } from '../../options/option-store.ts';
import { isEmailAddress } from '../users/user-rules.ts';

/** Applies the e-mail address format, domain whitelist and alias restriction options. */
export function checkEmailAllowed(email: string, options: OptionStore): string {
  const value = email.trim();
  if (!isEmailAddress(value)) throw invalidRequest('无效的邮箱地址');
  const [local = '', domain = ''] = value.split('@');
  if (options.getBoolean('EmailDomainRestrictionEnabled')) {
    const allowed = options
      .get('EmailDomainWhitelist')
      .split(',')
      .map((entry) => entry.trim().toLowerCase())
      .filter(Boolean);
    if (!allowed.includes(domain.toLowerCase())) {
      throw invalidRequest('管理员启用了邮箱域名白名单，您的邮箱地址的域名不在白名单中');
    }
  }
  if (options.getBoolean('EmailAliasRestrictionEnabled') && /[+.]/.test(local)) {
    throw invalidRequest('管理员已启用邮箱地址别名限制，您的邮箱地址由于包含特殊符号而被拒绝。');
  }
  return value;
}
