import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type SmtpSink, startSmtpSink } from '../console/smtp-sink.ts';
import { envelope } from '../helper.ts';
import {
  createChannel,
  createToken,
  type RelayFixture,
  setOption,
  startRelayFixture,
} from './relay-support.ts';

async function chat(f: RelayFixture, key: string) {
  const response = await fetch(`${f.baseUrl}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'gpt-4o',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hello there' }],
    }),
  });
  await response.arrayBuffer();
  return response.status;
}

describe('low-quota notification', () => {
  let f: RelayFixture;
  let sink: SmtpSink;
  beforeAll(async () => {
    f = await startRelayFixture();
    sink = await startSmtpSink();
    await setOption(f, 'SMTPServer', '127.0.0.1');
    await setOption(f, 'SMTPPort', String(sink.port));
    await setOption(f, 'SMTPFrom', 'gateway@example.com');
    await createChannel(f);
  });
  afterAll(async () => {
    await f.close();
    await sink.close();
  });

  it('mails once when the balance crosses the threshold, then stays quiet', async () => {
    expect(
      envelope(await f.root.post('/api/user/', { username: 'lowbal', password: 'lowbal-password' })).success,
    ).toBe(true);
    const user = await f.t.login('lowbal', 'lowbal-password');
    // gpt-4o costs (prompt + completion × 4) × 1.25 per call: the first calls cross 2,000.
    expect(envelope(await f.root.put('/api/user/', { id: user.userId, quota: 2_050 })).success).toBe(true);
    const settings = {
      notify_type: 'email',
      quota_warning_threshold: 2_000,
      notification_email: 'lowbal@example.com',
    };
    expect(envelope(await user.put('/api/user/setting', settings)).success).toBe(true);
    const { key } = await createToken(user);
    for (let i = 0; i < 4; i++) expect(await chat(f, key)).toBe(200);
    await f.t.app.services.relay.drain();
    const mails = sink.to('lowbal@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]?.text).toContain('您的额度即将用尽');
  });
});
