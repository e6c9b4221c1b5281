import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { deliverWebhook, signWebhookBody } from './webhook-delivery.ts';

describe('webhook delivery', () => {
  it('signs the raw body with HMAC-SHA256', () => {
    const body = '{"a":1}';
    expect(signWebhookBody('secret', body)).toBe(createHmac('sha256', 'secret').update(body).digest('hex'));
  });
  it('refuses plain http targets', async () => {
    await expect(
      deliverWebhook('http://127.0.0.1:9/hook', '', {
        type: 't',
        title: '',
        content: '',
        values: [],
        timestamp: 0,
      }),
    ).rejects.toThrow('https');
  });
});
