import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Epay (易支付) MD5 signatures, as the go-epay SDK the reference uses computes them: the
 * parameters sorted by name, without `sign`, `sign_type` and empty values, joined as
 * `k=v&k=v`, then `md5(joined + key)` in lowercase hexadecimal. Values are signed as given
 * (not URL-encoded). Pure: no I/O, no options.
 */

/** The text that is hashed (before the key is appended). */
export function epaySigningContent(params: Readonly<Record<string, string>>): string {
  return Object.keys(params)
    .filter((name) => name !== 'sign' && name !== 'sign_type' && params[name] !== '')
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('&');
}

/** The signature of the parameters under the merchant key. */
export function signEpay(params: Readonly<Record<string, string>>, key: string): string {
  return createHash('md5')
    .update(epaySigningContent(params) + key, 'utf8')
    .digest('hex');
}

/** The parameters plus `sign` and `sign_type=MD5`: the form posted to `<PayAddress>/submit.php`. */
export function withEpaySignature<T extends Record<string, string>>(
  params: T,
  key: string,
): T & { sign: string; sign_type: 'MD5' } {
  const unsigned: Record<string, string> = { ...params };
  delete unsigned.sign;
  delete unsigned.sign_type;
  return { ...(unsigned as T), sign: signEpay(unsigned, key), sign_type: 'MD5' };
}

/**
 * True when `params.sign` is the signature of the other parameters under `key`. The comparison
 * takes the same time wherever the first difference is, so the signature cannot be guessed byte
 * by byte. Another `sign_type` than MD5 (or none) is refused.
 */
export function verifyEpaySignature(params: Readonly<Record<string, string>>, key: string): boolean {
  if (key === '') return false;
  const given = params.sign;
  if (typeof given !== 'string' || !/^[0-9a-fA-F]{32}$/.test(given)) return false;
  const signType = params.sign_type;
  if (signType !== undefined && signType !== '' && signType.toUpperCase() !== 'MD5') return false;
  const expected = Buffer.from(signEpay(params, key), 'utf8');
  const actual = Buffer.from(given.toLowerCase(), 'utf8');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
