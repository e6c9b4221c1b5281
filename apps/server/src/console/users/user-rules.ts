import { invalidRequest } from '../../errors/gateway-error.ts';

export const USERNAME_MAX_LENGTH = 12;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 20;
export const DISPLAY_NAME_MAX_LENGTH = 20;

/** Checks a username: required, at most 12 characters, no spaces or control characters. */
export function checkUsername(username: string): string {
  const value = username.trim();
  if (value === '') throw invalidRequest('用户名不能为空');
  if ([...value].length > USERNAME_MAX_LENGTH)
    throw invalidRequest(`用户名长度不能超过 ${USERNAME_MAX_LENGTH} 个字符`);
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point.
  if (/[\s\u0000-\u001f\u007f]/.test(value)) throw invalidRequest('用户名不能包含空白或控制字符');
  return value;
}

/** Checks a new password: 8 to 20 characters. */
export function checkPassword(password: string): string {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH || length > PASSWORD_MAX_LENGTH) {
    throw invalidRequest(`密码长度必须在 ${PASSWORD_MIN_LENGTH} 到 ${PASSWORD_MAX_LENGTH} 个字符之间`);
  }
  return password;
}

/** Checks a display name (defaults to the username when empty). */
export function checkDisplayName(displayName: string | undefined, username: string): string {
  const value = (displayName ?? '').trim();
  if (value === '') return username;
  if ([...value].length > DISPLAY_NAME_MAX_LENGTH) {
    throw invalidRequest(`显示名称长度不能超过 ${DISPLAY_NAME_MAX_LENGTH} 个字符`);
  }
  return value;
}

/** A syntactically plausible e-mail address (the mail server has the final word). */
export function isEmailAddress(value: string): boolean {
  return value.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);
}
