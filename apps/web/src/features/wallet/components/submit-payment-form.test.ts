import { afterEach, describe, expect, it, vi } from 'vitest';
import { submitPaymentForm } from './submit-payment-form';

describe('submitPaymentForm', () => {
  afterEach(() => vi.restoreAllMocks());

  it('posts every field as a hidden input to the payment page and removes the form', () => {
    let seen: { action: string; method: string; target: string; fields: Record<string, string> } | null =
      null;
    vi.spyOn(HTMLFormElement.prototype, 'submit').mockImplementation(function (this: HTMLFormElement) {
      const fields: Record<string, string> = {};
      for (const input of Array.from(this.querySelectorAll('input'))) {
        expect(input.type).toBe('hidden');
        fields[input.name] = input.value;
      }
      seen = { action: this.action, method: this.method, target: this.target, fields };
      expect(document.body.contains(this)).toBe(true);
    });
    submitPaymentForm('https://pay.example.com/submit.php', { pid: '1001', money: '21.90', sign: 'abc' });
    expect(seen).toEqual({
      action: 'https://pay.example.com/submit.php',
      method: 'post',
      target: '_blank',
      fields: { pid: '1001', money: '21.90', sign: 'abc' },
    });
    expect(document.querySelector('form')).toBeNull();
  });
});
