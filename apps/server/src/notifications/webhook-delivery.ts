import { createHmac } from 'node:crypto';

/** The JSON body of a webhook notification (the reference's shape; consumers use `values`). */
export interface WebhookPayload {
  type: string;
  title: string;
  content: string;
  values: unknown[];
  timestamp: number;
}

/** Hex HMAC-SHA256 of the raw body with the user's secret (header `X-Webhook-Signature`). */
export function signWebhookBody(secret: string, body: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * POSTs a notification to an https webhook with a 5 s timeout. The body is signed when a secret
 * is set (and also sent as `Authorization: Bearer <secret>`, as the reference does).
 */
export async function deliverWebhook(url: string, secret: string, payload: WebhookPayload): Promise<void> {
  const target = new URL(url);
  if (target.protocol !== 'https:') {
    throw new Error('webhook URL must use https');
  }
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (secret) {
    headers['x-webhook-signature'] = signWebhookBody(secret, body);
    headers.authorization = `Bearer ${secret}`;
  }
  const response = await fetch(target, { method: 'POST', headers, body, signal: AbortSignal.timeout(5_000) });
  if (!response.ok) throw new Error(`webhook answered ${response.status}`);
}
