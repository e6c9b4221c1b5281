import { describe, expect, it } from 'vitest';
import { epaySigningContent, signEpay, verifyEpaySignature, withEpaySignature } from './epay-signature.ts';

// Expected digests computed independently (Python hashlib.md5) from the documented algorithm.
const ORDER = {
  pid: '1001',
  type: 'alipay',
  out_trade_no: 'USR7NOabcdEFGH1700000000',
  notify_url: 'https://gw.example.com/api/user/epay/notify',
  return_url: 'https://gw.example.com/log',
  name: 'TUC3',
  money: '21.90',
  device: 'pc',
};
const ORDER_CONTENT =
  'device=pc&money=21.90&name=TUC3&notify_url=https://gw.example.com/api/user/epay/notify' +
  '&out_trade_no=USR7NOabcdEFGH1700000000&pid=1001&return_url=https://gw.example.com/log&type=alipay';
const ORDER_SIGN = '6ee7cd299be6dd4f937eaf4bf1e2abe8';

describe('epay signature', () => {
  it('sorts by name, skips sign, sign_type and empty values, and joins unencoded', () => {
    expect(epaySigningContent({ ...ORDER, sign: 'x', sign_type: 'MD5', param: '' })).toBe(ORDER_CONTENT);
  });

  it('is md5(content + key) in lowercase hex', () => {
    expect(signEpay(ORDER, 'secret-key')).toBe(ORDER_SIGN);
    expect(signEpay({ pid: '1', name: '中文商品', money: '1.00' }, 'k')).toBe(
      'e284a7ec223f49b8563141e3fb821a05',
    );
  });

  it('adds sign and sign_type=MD5 to a form', () => {
    const form = withEpaySignature(ORDER, 'secret-key');
    expect(form).toEqual({ ...ORDER, sign: ORDER_SIGN, sign_type: 'MD5' });
    // Re-signing a signed form ignores the old signature.
    expect(withEpaySignature({ ...form, sign: 'stale' }, 'secret-key').sign).toBe(ORDER_SIGN);
  });

  it('verifies a genuine notification, with or without sign_type, in either hex case', () => {
    const notification = { ...ORDER, trade_no: '2024', trade_status: 'TRADE_SUCCESS' };
    const signed = withEpaySignature(notification, 'secret-key');
    expect(verifyEpaySignature(signed, 'secret-key')).toBe(true);
    expect(verifyEpaySignature({ ...signed, sign_type: '' }, 'secret-key')).toBe(true);
    expect(verifyEpaySignature({ ...signed, sign: signed.sign.toUpperCase() }, 'secret-key')).toBe(true);
    // An empty extra parameter is not signed, so adding one keeps the signature valid.
    expect(verifyEpaySignature({ ...signed, param: '' }, 'secret-key')).toBe(true);
  });

  it('refuses altered values, extra parameters, other keys, other sign types and malformed signs', () => {
    const signed = withEpaySignature({ ...ORDER, trade_status: 'TRADE_SUCCESS' }, 'secret-key');
    expect(verifyEpaySignature({ ...signed, money: '0.01' }, 'secret-key')).toBe(false);
    expect(verifyEpaySignature({ ...signed, out_trade_no: 'USR8NOx' }, 'secret-key')).toBe(false);
    expect(verifyEpaySignature({ ...signed, extra: '1' }, 'secret-key')).toBe(false);
    expect(verifyEpaySignature(signed, 'other-key')).toBe(false);
    expect(verifyEpaySignature(signed, '')).toBe(false);
    expect(verifyEpaySignature({ ...signed, sign_type: 'RSA' }, 'secret-key')).toBe(false);
    for (const sign of ['', 'abc', `${signed.sign}00`, 'z'.repeat(32)]) {
      expect(verifyEpaySignature({ ...signed, sign }, 'secret-key')).toBe(false);
    }
    const { sign: _sign, ...unsigned } = signed;
    expect(verifyEpaySignature(unsigned, 'secret-key')).toBe(false);
  });
});
